/**
 * Cron and queue triggers against a real `wrangler dev`, offline: `GET /__scheduled?cron=…&time=…`
 * (`--test-scheduled`) runs the Worker's scheduled handler, and a message sent to the local
 * `little-workflow-runs` queue (through the producer binding, by the test entry's
 * `POST /__test/queue`) reaches its queue consumer. Runs belong to tenant `dev`
 * (`LITTLE_TRIGGER_TENANT`), so the dev token reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { sleep, startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

type Summary = { runId: string; workflowId: string; status: string; triggerKind: string };

let dev: WranglerDev;
let api: ReturnType<typeof client>;
const CRON = "0 8 * * MON-FRI";

beforeAll(async () => {
  dev = await startWranglerDev({
    testScheduled: true,
    entry: "test/e2e/support/queue-sender-entry.ts",
    vars: { LITTLE_TRIGGER_TENANT: "dev" },
  });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
});

async function runsOf(workflowId: string): Promise<Summary[]> {
  const r = await api.call("GET", `/v1/runs?workflow=${workflowId}&limit=200`);
  expect(r.status, r.text).toBe(200);
  return r.json.runs as Summary[];
}

/** Waits until `find` sees a run in the list (a trigger answers before its run is listed). */
async function waitForRun(workflowId: string, find: (runs: Summary[]) => Summary | undefined, timeoutMs = 20_000): Promise<Summary> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = find(await runsOf(workflowId));
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no run of ${workflowId} appeared\n${dev.logs.slice(-4_000)}`);
    await sleep(200);
  }
}

/** What a user does: `/__scheduled?cron=…` (wrangler's middleware; the tick's time is now). */
const tick = (cron: string) => fetch(`${dev.url}/__scheduled?cron=${encodeURIComponent(cron)}`);
/** Miniflare's own route, which takes the tick's scheduled time too: a tick delivered again. */
const tickAt = (cron: string, time: number) =>
  fetch(`${dev.url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(cron)}&time=${time}&format=json`);

describe("cron triggers (wrangler dev --test-scheduled)", () => {
  it("a tick on the example's cron starts ops.daily-digest, which completes; the same tick again starts nothing", async () => {
    const first = await tick(CRON);
    expect(first.status, await first.text()).toBe(200);
    const run = await waitForRun("ops.daily-digest", (runs) => runs.find((r) => r.triggerKind === "cron"));
    const { run: ended } = await api.pollUntilEnded(run.runId);
    expect(ended).toMatchObject({ status: "completed", workflowId: "ops.daily-digest" });
    expect(ended.output).toMatchObject({ headline: expect.any(String), items: expect.any(Array) });
    const requested = (await api.events(run.runId)).find((e) => e.type === "RunRequested");
    expect(requested?.payload).toMatchObject({
      input: { team: "support", focus: "tickets opened overnight" },
      trigger: { kind: "cron", id: expect.stringMatching(/^0 8 \* \* MON-FRI@\d{4}-\d\d-\d\dT/) },
    });

    // The same tick (same cron, same scheduled time) delivered again, and a cron no workflow has.
    const triggerId = (requested?.payload.trigger as { id?: string } | undefined)?.id ?? "";
    const scheduledTime = Date.parse(triggerId.split("@")[1] ?? "");
    expect(scheduledTime).toBeGreaterThan(0);
    const again = await tickAt(CRON, scheduledTime);
    expect(again.status, await again.text()).toBe(200);
    const other = await tickAt("*/5 * * * *", scheduledTime);
    expect(other.status).toBe(200);
    expect((await runsOf("ops.daily-digest")).map((r) => r.runId)).toEqual([run.runId]);
    // A later tick is a new run.
    const later = await tickAt(CRON, scheduledTime + 86_400_000);
    expect(later.status).toBe(200);
    const next = await waitForRun("ops.daily-digest", (runs) => runs.find((r) => r.runId !== run.runId));
    expect(next.triggerKind).toBe("cron");
  });
});

describe("queue triggers (a local queue)", () => {
  it("a message starts a run that completes; a body the input schema refuses is dead-lettered with input_schema_error", async () => {
    const sent = await fetch(`${dev.url}/__test/queue`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workflowId: SEED_WORKFLOW, input: INPUT }),
    });
    expect(sent.status).toBe(202);
    const run = await waitForRun(SEED_WORKFLOW, (runs) => runs.find((r) => r.triggerKind === "queue"));
    const { run: ended } = await api.pollUntilEnded(run.runId);
    expect(ended).toMatchObject({ status: "completed", workflowId: SEED_WORKFLOW });
    const requested = (await api.events(run.runId)).find((e) => e.type === "RunRequested");
    expect(requested?.payload).toMatchObject({ input: INPUT, trigger: { kind: "queue", id: expect.any(String) } });

    const bad = await fetch(`${dev.url}/__test/queue`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workflowId: SEED_WORKFLOW, input: { ticketId: 42 } }),
    });
    expect(bad.status).toBe(202);
    const until = Date.now() + 20_000;
    const deadLettered = /"outcome":"dead_lettered","cause":"input_schema_error","to":"queued"/;
    while (!deadLettered.test(dev.logs) && Date.now() < until) await sleep(200);
    expect(dev.logs).toMatch(deadLettered);
    // Acknowledged: never retried, and no run for it.
    await sleep(1_500);
    expect(dev.logs.match(/"cause":"input_schema_error"/g)).toHaveLength(1);
    expect((await runsOf(SEED_WORKFLOW)).filter((r) => r.triggerKind === "queue")).toHaveLength(1);
  });
});
