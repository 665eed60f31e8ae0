import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { app } from "../../../src/api/app.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { DEFAULT_QUOTAS, startLimits } from "../../../src/engine/runs/start-limits.ts";
import { summarizeTicketDefinition } from "../../../src/examples/support-summarize-ticket.ts";
import { START_WINDOW_MS } from "../../../src/ports/start-quota.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { liveSeed } from "./support/seed-lwir.ts";

// Issue 15, finding 6 (start limits): nothing limited how many runs a tenant started. Through the
// Worker's real app over real D1 and run objects, with the quota vars set per test: a tenant over
// its starts-per-minute or concurrent-runs limit gets 429 `quota_exceeded` with `Retry-After`, and
// nothing is created; every admitted start has its run.

const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const WORKFLOW = "support.summarize-ticket";
const INPUT = { ticketId: "T-9", transcript: "The export button does nothing." };

beforeEach(() => overrideWiring({ models: OFFLINE }));
afterEach(() => overrideWiring({}));

type Answer = { status: number; headers: Headers; json: Record<string, unknown> };

/** One request to the Worker's app with these Worker vars on top of the test bindings. */
async function call(vars: Record<string, string>, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://little.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
    { ...env, ...vars },
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, json: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function tenantToken(tenant: string): Promise<string> {
  const r = await call({}, "POST", "/v1/tokens", "test-admin-token", { tenant });
  expect(r.status).toBe(201);
  return r.json.token as string;
}

const code = (a: Answer) => (a.json.error as { code?: string } | undefined)?.code;

async function indexRows(tenant: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT run_id FROM runs WHERE tenant = ?").bind(tenant).all<{ run_id: string }>();
  return results.map((r) => r.run_id).sort();
}

/** Waits until at least `margin` ms are left in the current fixed window, so a test stays in one. */
async function insideOneWindow(margin = 8_000): Promise<void> {
  const left = START_WINDOW_MS - (Date.now() % START_WINDOW_MS);
  if (left < margin) await new Promise((r) => setTimeout(r, left + 50));
}

describe("a start the definition gate refuses", () => {
  it("gives back the start it was admitted to (the gate and the quota are asked together): the next start still fits", async () => {
    await insideOneWindow();
    const gated: RegisteredWorkflow = {
      definition: defineWorkflow({ ...summarizeTicketDefinition, id: "gated.quota", requireApproval: true }),
      tools: {},
    };
    overrideWiring({
      models: OFFLINE,
      workflows: catalogOf([gated, { definition: defineWorkflow(summarizeTicketDefinition), tools: {} }]),
    });
    const tenant = `gate_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "1" };
    const refused = await call(vars, "POST", "/v1/workflows/gated.quota/runs", token, { input: INPUT });
    expect(refused.status).toBe(403);
    expect(code(refused)).toBe("definition_not_approved");
    const window = await env.DB.prepare("SELECT starts, in_flight FROM tenant_start_windows WHERE tenant = ?").bind(tenant).first();
    expect(window ?? { starts: 0, in_flight: 0 }).toEqual({ starts: 0, in_flight: 0 });
    const started = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT });
    expect(started.status).toBe(202);
    expect(await indexRows(tenant)).toHaveLength(1);
  });
});

describe("starts per minute", () => {
  it("16 concurrent clients over a limit of 5: 5 runs, 11 × 429 quota_exceeded with Retry-After, nothing half-created", async () => {
    const tenant = "quota_burst";
    const token = await tenantToken(tenant);
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "5", LITTLE_QUOTA_CONCURRENT_RUNS: "1000" };
    await insideOneWindow();
    const ids = Array.from({ length: 16 }, (_, i) => `burst_${i}`);
    const answers = await Promise.all(
      ids.map((runId) => call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId })),
    );
    const admitted = ids.filter((_, i) => answers[i]?.status === 202).sort();
    const refused = ids.filter((_, i) => answers[i]?.status === 429).sort();
    expect(answers.map((a) => a.status).filter((s) => s !== 202 && s !== 429)).toEqual([]);
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(11);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(code(a)).toBe("quota_exceeded");
      const retryAfter = Number(a.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((a.json.error as { findings: { code: string }[] }).findings[0]?.code).toBe("quota.starts_per_minute");
    }
    // Every 202 has its run (index row and a run object with its request); every 429 has none.
    expect(await indexRows(tenant)).toEqual(admitted);
    for (const runId of admitted) {
      const r = await call(vars, "GET", `/v1/runs/${runId}`, token);
      expect(r.status).toBe(200);
      expect((r.json.run as { eventCount: number }).eventCount).toBeGreaterThan(0);
    }
    for (const runId of refused) expect((await call(vars, "GET", `/v1/runs/${runId}`, token)).status).toBe(404);
    const window = await env.DB.prepare("SELECT starts FROM tenant_start_windows WHERE tenant = ?")
      .bind(tenant)
      .first<{ starts: number }>();
    expect(window?.starts).toBe(5);
    // Another tenant is not limited by this one's window.
    const other = await tenantToken("quota_burst_other");
    expect((await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, other, { input: INPUT })).status).toBe(202);
  });

  it("a repeated start of an existing run costs nothing and is answered even at the limit", async () => {
    const tenant = "quota_repeat";
    const token = await tenantToken(tenant);
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "2" };
    await insideOneWindow();
    const first = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "again" });
    expect(first.status).toBe(202);
    // Repeats (same id and input) are given back their slot: the window stays at 1.
    for (let i = 0; i < 3; i++)
      expect((await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "again" })).status).toBe(202);
    const starts = async () =>
      (await env.DB.prepare("SELECT starts FROM tenant_start_windows WHERE tenant = ?").bind(tenant).first<{ starts: number }>())?.starts;
    expect(await starts()).toBe(1);
    // A conflicting repeat (409) gives it back too.
    const conflict = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, {
      input: { ...INPUT, ticketId: "T-10" },
      runId: "again",
    });
    expect(code(conflict)).toBe("run_id_conflict");
    expect(await starts()).toBe(1);
    expect((await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "second" })).status).toBe(202);
    const over = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "third" });
    expect(over.status).toBe(429);
    // At the limit, a retry of a run that exists still gets its run, not a 429.
    expect((await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "again" })).status).toBe(202);
    expect(await indexRows(tenant)).toEqual(["again", "second"]);
  });
});

describe("concurrent runs", () => {
  it("16 concurrent clients over a limit of 3 concurrent runs: exactly 3 runs, 13 × 429 concurrent_runs (no overshoot)", async () => {
    // Planner calls that take 4 s keep the admitted runs compiling for the whole burst.
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 4_000 }) });
    const tenant = "quota_conc_burst";
    const token = await tenantToken(tenant);
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "1000", LITTLE_QUOTA_CONCURRENT_RUNS: "3" };
    await insideOneWindow();
    const ids = Array.from({ length: 16 }, (_, i) => `conc_${i}`);
    const answers = await Promise.all(
      ids.map((runId) => call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId })),
    );
    const admitted = ids.filter((_, i) => answers[i]?.status === 202).sort();
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(3).fill(202), ...Array(13).fill(429)]);
    for (const a of answers.filter((x) => x.status === 429))
      expect((a.json.error as { findings: { code: string }[] }).findings[0]?.code).toBe("quota.concurrent_runs");
    expect(await indexRows(tenant)).toEqual(admitted);
    // Every admitted run is in the index now: nothing is left in flight.
    const window = await env.DB.prepare("SELECT starts, in_flight FROM tenant_start_windows WHERE tenant = ?").bind(tenant).first();
    expect(window).toEqual({ starts: 3, in_flight: 0 });
  });

  it("a tenant with its limit of runs pending or running gets 429 quota_exceeded (concurrent_runs); an ended run frees a slot", async () => {
    const tenant = "quota_concurrent";
    const token = await tenantToken(tenant);
    const vars = { LITTLE_QUOTA_CONCURRENT_RUNS: "2" };
    const insert = env.DB.prepare(
      "INSERT INTO runs (tenant, run_id, workflow_id, status, wait_reason, trigger_kind, placement, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'http', '{}', 1, 1)",
    );
    await env.DB.batch([
      // A run waiting for an approval is mid-work: it holds its slot; a section waiting for a trigger does not.
      insert.bind(tenant, "busy_1", WORKFLOW, "waiting", "approval"),
      insert.bind(tenant, "busy_2", WORKFLOW, "pending", null),
      insert.bind(tenant, "done_1", WORKFLOW, "completed", null),
      insert.bind(tenant, "section_1", WORKFLOW, "waiting", "trigger"),
    ]);
    const refused = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "blocked" });
    expect(refused.status).toBe(429);
    expect(code(refused)).toBe("quota_exceeded");
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((refused.json.error as { findings: { code: string }[] }).findings[0]?.code).toBe("quota.concurrent_runs");
    // The LWIR route starts runs too: the same refusal.
    const { lwir } = await liveSeed();
    const viaLwir = await call(vars, "POST", "/v1/lwir/runs", token, { lwir, input: INPUT, runId: "blocked_lwir" });
    expect({ status: viaLwir.status, code: code(viaLwir) }).toEqual({ status: 429, code: "quota_exceeded" });
    expect(await indexRows(tenant)).toEqual(["busy_1", "busy_2", "done_1", "section_1"]);

    await env.DB.prepare("UPDATE runs SET status = 'completed' WHERE tenant = ? AND run_id = 'busy_1'").bind(tenant).run();
    expect((await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "blocked" })).status).toBe(202);
  });
});

describe("configuration", () => {
  it("a malformed or non-positive var keeps the default (a typo never turns a quota off)", () => {
    const defaults = { startsPerMinute: DEFAULT_QUOTAS.startsPerMinute, concurrentRuns: DEFAULT_QUOTAS.concurrentRuns };
    expect(startLimits({})).toEqual(defaults);
    for (const bad of ["0", "-1", "ten", "1e3", "", " ", "9007199254740993"])
      expect(startLimits({ LITTLE_QUOTA_STARTS_PER_MINUTE: bad, LITTLE_QUOTA_CONCURRENT_RUNS: bad })).toEqual(defaults);
    expect(startLimits({ LITTLE_QUOTA_STARTS_PER_MINUTE: "30", LITTLE_QUOTA_CONCURRENT_RUNS: " 4 " })).toEqual({
      startsPerMinute: 30,
      concurrentRuns: 4,
    });
  });
});
