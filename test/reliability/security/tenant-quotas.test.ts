import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { app } from "../../../src/api/app.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { DEFAULT_QUOTAS, startLimits } from "../../../src/engine/runs/start-limits.ts";
import { summarizeTicketDefinition } from "../../../src/examples/support-summarize-ticket.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { runStub } from "../../support/drive.ts";
import { maxOverlap } from "../../support/flow-workflows.ts";
import { liveSeed } from "./support/seed-lwir.ts";

// Issue 15, finding 6 (start limits), as issue 32 moved them off the ack: a tenant over its
// starts-per-minute or concurrent-runs limit is not refused. Its start is acknowledged (202, the run
// durable in its own object) and the run waits at its tenant's quota gate — a limiter object per
// tenant and quota — before it does any work; measured by behaviour: never more than the quota at
// once, never more starts in a minute than the quota, each run admitted once.

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

async function newTenant(prefix: string): Promise<{ tenant: string; token: string }> {
  const tenant = `${prefix}_${crypto.randomUUID().slice(0, 8)}`;
  const r = await call({}, "POST", "/v1/tokens", "test-admin-token", { tenant });
  expect(r.status).toBe(201);
  return { tenant, token: r.json.token as string };
}

const code = (a: Answer) => (a.json.error as { code?: string } | undefined)?.code;

/** The tenant-quota gate events of a run, as `queued:kind` / `admitted:kind`. */
function tenantGateEvents(events: readonly RunEvent[]): string[] {
  return events.flatMap((e) =>
    (e.type === "FlowQueued" || e.type === "FlowAdmitted") && e.payload.scope === "tenant"
      ? [`${e.type === "FlowQueued" ? "queued" : "admitted"}:${e.payload.kind}`]
      : [],
  );
}

/**
 * The run's events once its alarm has been at its tenant's gates (queued at one, or through both).
 * The alarms fire by themselves; the wait between reads is an RPC that returns after 20 ms.
 */
async function atTenantGates(runId: string, tenant: string): Promise<RunEvent[]> {
  for (let i = 0; i < 500; i++) {
    const events = await runStub(runId, tenant).events({ limit: 1_000 });
    const gates = tenantGateEvents(events);
    if (gates.some((g) => g.startsWith("queued:")) || gates.includes("admitted:concurrency")) return events;
    await runStub(runId, tenant).waitForEnd(20);
  }
  throw new Error(`run ${runId} never reached its tenant's gates`);
}

describe("a start the definition gate refuses", () => {
  it("stores nothing, and takes nothing of the tenant's quota: the next start is let through", async () => {
    const gated: RegisteredWorkflow = {
      definition: defineWorkflow({ ...summarizeTicketDefinition, id: "gated.quota", requireApproval: true }),
      tools: {},
    };
    overrideWiring({
      models: OFFLINE,
      workflows: catalogOf([gated, { definition: defineWorkflow(summarizeTicketDefinition), tools: {} }]),
    });
    const { tenant, token } = await newTenant("gate");
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "1" };
    const refused = await call(vars, "POST", "/v1/workflows/gated.quota/runs", token, { input: INPUT, runId: "refused" });
    expect(refused.status).toBe(403);
    expect(code(refused)).toBe("definition_not_approved");
    expect((await call(vars, "GET", "/v1/runs/refused", token)).status).toBe(404);
    expect(await runStub("refused", tenant).events()).toEqual([]);
    const started = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: "next" });
    expect(started.status).toBe(202);
    expect(tenantGateEvents(await atTenantGates("next", tenant))).toEqual(["admitted:throttle", "admitted:concurrency"]);
  });
});

describe("starts per minute", () => {
  it("16 concurrent clients over a limit of 5: 16 acks, 5 runs let through, 11 waiting at the tenant's throttle; none refused", async () => {
    const { tenant, token } = await newTenant("quota_burst");
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "5", LITTLE_QUOTA_CONCURRENT_RUNS: "1000" };
    const ids = Array.from({ length: 16 }, (_, i) => `burst_${i}`);
    const answers = await Promise.all(
      ids.map((runId) => call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId })),
    );
    // Every start is acknowledged: its run is durable in its object, its quota not yet asked.
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 202));
    for (const a of answers) expect(a.json.run).toMatchObject({ status: "pending" });

    const gates = new Map<string, RunEvent[]>();
    for (const runId of ids) gates.set(runId, await atTenantGates(runId, tenant));
    const queued = ids.filter((id) => tenantGateEvents(gates.get(id) ?? []).includes("queued:throttle"));
    const through = ids.filter((id) => !queued.includes(id));
    expect(through).toHaveLength(5);
    expect(queued).toHaveLength(11);
    // Admitted once each, at the throttle then the slot; no run was let through twice.
    for (const runId of through) expect(tenantGateEvents(gates.get(runId) ?? [])).toEqual(["admitted:throttle", "admitted:concurrency"]);

    // A waiting run says what it waits for, and where it is in the tenant's queue.
    const read = await call(vars, "GET", `/v1/runs/${queued[0]}`, token);
    expect(read.json.run).toMatchObject({ status: "waiting", waitReason: "throttle", queue: { kind: "throttle", scope: "tenant" } });
    const position = (read.json.run as { queue: { position: number } }).queue.position;
    expect(position).toBeGreaterThanOrEqual(1);
    expect(position).toBeLessThanOrEqual(11);
    const listed = await call(vars, "GET", "/v1/runs?waitReason=throttle&limit=100", token);
    expect((listed.json.runs as { runId: string }[]).map((r) => r.runId).sort()).toEqual([...queued].sort());

    // A repeated start of a waiting run answers it (no second run, nothing more of the quota).
    const before = (await runStub(queued[0] as string, tenant).events({ limit: 1_000 })).length;
    const repeat = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId: queued[0] });
    expect(repeat.status).toBeLessThan(300);
    expect((repeat.json.run as { runId: string }).runId).toBe(queued[0]);
    expect((await runStub(queued[0] as string, tenant).events({ limit: 1_000 })).length).toBe(before);

    // Another tenant is not limited by this one's window.
    const other = await newTenant("quota_burst_other");
    const otherRun = await call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, other.token, { input: INPUT, runId: "free" });
    expect(otherRun.status).toBe(202);
    expect(tenantGateEvents(await atTenantGates("free", other.tenant))).toEqual(["admitted:throttle", "admitted:concurrency"]);

    // A waiting run cancelled leaves the queue: the one behind it moves up.
    expect((await call(vars, "POST", `/v1/runs/${queued[0]}/cancel`, token, {})).status).toBe(200);
    const behind = await call(vars, "GET", `/v1/runs/${queued[1]}`, token);
    expect((behind.json.run as { queue: { position: number } }).queue.position).toBeLessThanOrEqual(10);
    for (const runId of queued.slice(1)) await call(vars, "POST", `/v1/runs/${runId}/cancel`, token, {});
  });
});

describe("concurrent runs", () => {
  it("8 concurrent starts over a limit of 3 concurrent runs: all run to the end, never more than 3 at once, each admitted once", async () => {
    // Model calls of 300 ms keep each run busy long enough for the others to queue behind it.
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 300 }) });
    const { tenant, token } = await newTenant("quota_conc");
    const vars = { LITTLE_QUOTA_STARTS_PER_MINUTE: "1000", LITTLE_QUOTA_CONCURRENT_RUNS: "3" };
    const ids = Array.from({ length: 8 }, (_, i) => `conc_${i}`);
    const answers = await Promise.all(
      ids.map((runId) => call(vars, "POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT, runId })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 202));
    const ends = await Promise.all(ids.map(async (runId) => (await runStub(runId, tenant).waitForEnd(120_000)).status));
    expect(ends).toEqual(ids.map(() => "completed"));

    const logs = await Promise.all(ids.map((runId) => runStub(runId, tenant).events({ limit: 1_000 })));
    // The slot is held from its admission (the limiter's, before this event) to the run's release
    // (after its end): these intervals lie inside the held ones, so their overlap bounds nothing away.
    const intervals = logs.map((events) => {
      const admitted = events.find((e) => e.type === "FlowAdmitted" && e.payload.scope === "tenant" && e.payload.kind === "concurrency");
      const ended = events.find((e) => e.type === "RunCompleted");
      if (!admitted || !ended) throw new Error("a run without its admission or its end");
      return { start: admitted.at, end: ended.at };
    });
    expect(maxOverlap(intervals)).toBeLessThanOrEqual(3);
    for (const events of logs) {
      const gates = tenantGateEvents(events);
      expect(gates.filter((g) => g === "admitted:concurrency")).toHaveLength(1);
      // No work before the admission: the planner's session starts after it.
      const admittedSeq = events.find((e) => e.type === "FlowAdmitted" && e.payload.kind === "concurrency")?.seq ?? 0;
      const firstWork = events.find((e) => e.type.startsWith("harness.") || e.type === "RunStarted")?.seq ?? 0;
      expect(firstWork).toBeGreaterThan(admittedSeq);
    }
    // Some waited for a slot (8 runs, 3 slots), as `concurrency` at the tenant's gate.
    expect(logs.filter((events) => tenantGateEvents(events).includes("queued:concurrency")).length).toBeGreaterThan(0);
  });

  it("the LWIR route's runs carry the tenant's gates too", async () => {
    const { tenant, token } = await newTenant("quota_lwir");
    const vars = { LITTLE_QUOTA_CONCURRENT_RUNS: "2", LITTLE_QUOTA_STARTS_PER_MINUTE: "7" };
    const { lwir } = await liveSeed();
    const viaLwir = await call(vars, "POST", "/v1/lwir/runs", token, { lwir, input: INPUT, runId: "lwir_gated" });
    expect(viaLwir.status).toBe(202);
    const [requested] = await runStub("lwir_gated", tenant).events({ limit: 1 });
    expect(requested?.type === "RunRequested" ? requested.payload.flow : null).toEqual([
      { kind: "throttle", index: 0, key: "*", limit: 7, periodMs: 60_000, scope: "tenant" },
      { kind: "concurrency", index: 0, key: "*", limit: 2, scope: "tenant" },
    ]);
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
