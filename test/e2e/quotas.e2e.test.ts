/**
 * Start quotas against a real `wrangler dev` (issue 15, item 6; issue 32 moved them off the ack):
 * with `LITTLE_QUOTA_STARTS_PER_MINUTE=5`, 16 concurrent HTTP clients starting runs for one tenant
 * are all acknowledged (202: no D1 round trip before the ack, docs/runs.md "Where a start waits");
 * the tenant's throttle gate lets exactly 5 start in the window and the other 11 wait, queued
 * (`waitReason: "throttle"`, `queue.scope: "tenant"`), every one in the tenant's run list: none
 * lost, none started twice.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, signIn } from "../inspector/browser.ts";
import { type Answer, client, INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { sleep, startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let dev: WranglerDev;
let browser: Browser;

beforeAll(async () => {
  [dev, browser] = await Promise.all([startWranglerDev({ vars: { LITTLE_QUOTA_STARTS_PER_MINUTE: "5" } }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await dev?.dispose();
});

type Run = { runId: string; status: string; waitReason?: string; queue?: { scope?: string } };

describe("start quotas under concurrent clients", () => {
  it("16 concurrent starts over a limit of 5: all acknowledged, 5 start, 11 wait for the tenant's throttle", async () => {
    const admin = client(dev.url, dev.adminToken);
    const minted = await admin.call("POST", "/v1/tokens", { body: { tenant: "quota_e2e", scopes: ["runs:read", "runs:write"] } });
    expect(minted.status).toBe(201);
    const api = client(dev.url, minted.json.token as string);
    // Stay inside one fixed window (the throttle's window is a minute).
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((r) => setTimeout(r, left + 100));

    const ids = Array.from({ length: 16 }, (_, i) => `e2e_burst_${i}`);
    const answers: Answer[] = await Promise.all(
      ids.map((runId) => api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: INPUT, runId } })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 202));
    // Each run passes the gate from its own alarm, after the ack: wait until all 16 have been asked.
    let runs: Run[] = [];
    for (const end = Date.now() + 30_000; Date.now() < end; await sleep(200)) {
      runs = await Promise.all(ids.map(async (id) => (await api.call("GET", `/v1/runs/${id}`)).json.run as Run));
      const throttled = runs.filter((r) => r.waitReason === "throttle").length;
      const started = runs.filter((r) => r.status === "running" || r.status === "completed" || r.status === "compiling").length;
      if (throttled + started === 16 && started === 5) break;
    }
    const throttled = runs.filter((r) => r.waitReason === "throttle");
    expect(throttled).toHaveLength(11);
    expect(throttled.every((r) => r.queue?.scope === "tenant")).toBe(true);
    expect(
      runs
        .filter((r) => r.waitReason !== "throttle")
        .map((r) => r.status)
        .filter((s) => s === "pending" || s === "failed"),
    ).toEqual([]);
    const listed = await api.call("GET", "/v1/runs?limit=100");
    expect((listed.json.runs as { runId: string }[]).map((r) => r.runId).sort()).toEqual([...ids].sort());

    // The inspector says what a tenant-quota wait is: the tenant's quota, not a key of the workflow's.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, dev.url, minted.json.token as string, `/runs/${throttled[0]?.runId}`);
    await page.waitForSelector("#run-status[data-status=waiting][data-wait-reason=throttle]");
    expect(await page.textContent("#wait-reason")).toContain("the tenant's starts-per-minute quota");
    expect(await page.textContent("#queue-place")).toMatch(/\(tenant quota, position \d+\)/);
    await page.close();
  }, 120_000);
});
