/**
 * Start quotas against a real `wrangler dev` (issue 15, item 6): with
 * `LITTLE_QUOTA_STARTS_PER_MINUTE=5`, 16 concurrent HTTP clients starting runs for one tenant get
 * exactly 5 runs and 11 × 429 `quota_exceeded` with `Retry-After`; every 202 has its run, every
 * 429 has none, and the tenant's run list holds exactly the admitted ones.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, client, INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let dev: WranglerDev;

beforeAll(async () => {
  dev = await startWranglerDev({ vars: { LITTLE_QUOTA_STARTS_PER_MINUTE: "5" } });
});
afterAll(async () => {
  await dev?.dispose();
});

describe("start quotas under concurrent clients", () => {
  it("16 concurrent starts over a limit of 5: 5 runs, 11 × 429, nothing lost or half-created", async () => {
    const admin = client(dev.url, dev.adminToken);
    const minted = await admin.call("POST", "/v1/tokens", { body: { tenant: "quota_e2e", scopes: ["runs:read", "runs:write"] } });
    expect(minted.status).toBe(201);
    const api = client(dev.url, minted.json.token as string);
    // Stay inside one fixed window (the counter resets on the minute).
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 100));

    const ids = Array.from({ length: 16 }, (_, i) => `e2e_burst_${i}`);
    const answers: Answer[] = await Promise.all(
      ids.map((runId) => api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: INPUT, runId } })),
    );
    const admitted = ids.filter((_, i) => answers[i]?.status === 202).sort();
    const refused = ids.filter((_, i) => answers[i]?.status === 429).sort();
    expect(answers.map((a) => a.status).filter((s) => s !== 202 && s !== 429)).toEqual([]);
    expect({ admitted: admitted.length, refused: refused.length }).toEqual({ admitted: 5, refused: 11 });
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.json.error?.code).toBe("quota_exceeded");
      expect(Number(a.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    for (const runId of admitted) expect((await api.call("GET", `/v1/runs/${runId}`)).status).toBe(200);
    for (const runId of refused) expect((await api.call("GET", `/v1/runs/${runId}`)).status).toBe(404);
    const listed = await api.call("GET", "/v1/runs?limit=100");
    expect((listed.json.runs as { runId: string }[]).map((r) => r.runId).sort()).toEqual(admitted);
  });
});
