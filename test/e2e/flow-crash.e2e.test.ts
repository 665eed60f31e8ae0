/**
 * Flow control across a crash of the whole Worker (issue 28), against a real `wrangler dev`: 32
 * runs of the shipped support.reply-draft for one customer (concurrency 2 per customer) leave 30
 * queued in the customer's limiter object; wrangler and workerd are SIGKILLed, started again on
 * the same state, and every run completes exactly once. Only under `npm run torture` (it takes
 * about a minute); the queue's crash in `npm test` is test/reliability/durability/flow-leases.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type RunEvent, runOf } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const FULL = Number(process.env.LITTLE_TORTURE_SEEDS ?? "0") >= 100;
let dev: WranglerDev;
let api: ReturnType<typeof client>;

describe.skipIf(!FULL)("flow control across a SIGKILL (torture)", () => {
  beforeAll(async () => {
    // A short lease, so a slot held by a run killed mid-slice comes back within seconds.
    dev = await startWranglerDev({ offlineLatencyMs: 300, vars: { LITTLE_FLOW_LEASE_MS: "5000" } });
    api = client(dev.url, dev.devToken);
  });
  afterAll(async () => {
    await dev?.dispose();
  });

  it("30 runs queued when the Worker is killed: after the restart every one completes exactly once", async () => {
    const customerId = `c-${crypto.randomUUID().slice(0, 8)}`;
    // At once, as a burst arrives: 2 take the customer's slots, 30 queue.
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        api.call("POST", "/v1/workflows/support.reply-draft/runs", { body: { input: { customerId, message: `m${i}` } } }),
      ),
    );
    for (const r of answers) expect(r.status, r.text).toBe(202);
    const ids = answers.map((r) => runOf(r).runId);
    expect(answers.filter((r) => (runOf(r) as { waitReason?: string }).waitReason === "concurrency").length).toBeGreaterThanOrEqual(28);
    await dev.kill9();
    await dev.restart();
    for (const id of ids) expect((await api.pollUntilEnded(id, { timeoutMs: 240_000 })).run.status).toBe("completed");
    for (const id of ids) {
      const events: RunEvent[] = await api.events(id);
      expect(events.filter((e) => e.type === "RunCompleted")).toHaveLength(1);
      expect(events.filter((e) => e.type === "RunStarted")).toHaveLength(1);
    }
  }, 400_000);
});
