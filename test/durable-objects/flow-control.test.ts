import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import type { FlowGate } from "../../src/ports/flow-limiter.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call } from "../api/support/api-call.ts";
import { runStub } from "../support/drive.ts";
import {
  admittedAtOf,
  DEV_TENANT,
  eventsOf,
  flowWorkflow,
  maxOverlap,
  runningInterval,
  startFlowRun,
  waitForAll,
} from "../support/flow-workflows.ts";

// Issue 28 through the real path (the Worker's fetch, the start service, run objects, the limiter
// objects, D1): runs over a key's limit are accepted and queued, start first in first out within
// their key when a slot frees, and other keys are not held up.

const LIMITED = flowWorkflow("flow.limited", { concurrency: { key: "{{ input.customerId }}", limit: 2 } });
const THROTTLED = flowWorkflow("flow.throttled", { throttle: { key: "{{ input.customerId }}", limit: 5, periodMs: 1_000 } });

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 100 }),
    workflows: catalogOf([LIMITED, THROTTLED]),
  }),
);
afterEach(() => overrideWiring({}));

const unique = () => crypto.randomUUID().slice(0, 8);

describe("concurrency keys", () => {
  it("queues runs over the limit, runs at most 2 of a key at once, starts them in ack order, and does not hold up another key", async () => {
    const busy = `busy-${unique()}`;
    const other = `other-${unique()}`;
    const busyRuns = [];
    for (let i = 0; i < 8; i++) busyRuns.push(await startFlowRun("flow.limited", busy));
    const otherRuns = [];
    for (let i = 0; i < 3; i++) otherRuns.push(await startFlowRun("flow.limited", other));

    // Accepted, not refused: the first two hold the slots, the rest wait with their key and place.
    expect(busyRuns.slice(0, 2).every((r) => r.status !== "waiting")).toBe(true);
    for (const [i, run] of busyRuns.slice(2).entries()) {
      expect(run).toMatchObject({ status: "waiting", waitReason: "concurrency", queue: { kind: "concurrency", key: busy } });
      expect(run.queue?.position).toBeLessThanOrEqual(i + 1);
    }
    expect(otherRuns[2]).toMatchObject({ status: "waiting", waitReason: "concurrency", queue: { key: other } });

    // The run list filters queued runs.
    const listed = await call("GET", "/v1/runs?workflow=flow.limited&waitReason=concurrency&limit=100");
    expect(listed.status).toBe(200);
    const listedIds = (listed.json.runs as { runId: string }[]).map((r) => r.runId);
    expect(listedIds).toEqual(expect.arrayContaining(busyRuns.slice(-3).map((r) => r.runId)));

    const statuses = await waitForAll([...busyRuns, ...otherRuns].map((r) => r.runId));
    expect(statuses.every((s) => s === "completed")).toBe(true);

    const busyEvents = await Promise.all(busyRuns.map((r) => eventsOf(r.runId)));
    const intervals = busyEvents.map((e) => runningInterval(e)).filter((i) => i !== null);
    expect(intervals).toHaveLength(8);
    expect(maxOverlap(intervals)).toBeLessThanOrEqual(2);
    // First in, first out within the key: admissions in the order the starts were acknowledged.
    const admittedAt = busyEvents.map(admittedAtOf);
    expect([...admittedAt].sort((a, b) => a - b)).toEqual(admittedAt);
    // Each run was admitted exactly once at its key, and once at each of its tenant's quota gates (after its key's).
    for (const events of busyEvents)
      expect(events.flatMap((e) => (e.type === "FlowAdmitted" ? [`${e.payload.scope ?? "workflow"}:${e.payload.kind}`] : []))).toEqual([
        "workflow:concurrency",
        "tenant:throttle",
        "tenant:concurrency",
      ]);

    // The other key ran beside the busy one: its last run ended before the busy key's last.
    const otherEnds = (await Promise.all(otherRuns.map((r) => eventsOf(r.runId)))).map((e) => runningInterval(e)?.end ?? 0);
    expect(Math.max(...otherEnds)).toBeLessThan(Math.max(...intervals.map((i) => i.end)));

    // The workflow's keys, with their counts once drained (the limiters report after each change).
    let queues: { key: string; running: number; queued: number; limit: number }[] = [];
    for (let i = 0; i < 100; i++) {
      queues = (await call("GET", "/v1/workflows/flow.limited/queues")).json.queues as typeof queues;
      if (queues.filter((q) => q.key === busy || q.key === other).every((q) => q.running === 0 && q.queued === 0)) break;
      await runStub(busyRuns[0]?.runId as string, DEV_TENANT).waitForEnd(20);
    }
    expect(queues.filter((q) => q.key === busy || q.key === other)).toEqual([
      expect.objectContaining({ kind: "concurrency", key: busy, limit: 2, running: 0, queued: 0 }),
      expect.objectContaining({ kind: "concurrency", key: other, limit: 2, running: 0, queued: 0 }),
    ]);
  });

  it("shows its flow control in GET /v1/workflows, and refuses a queues listing of an unknown workflow", async () => {
    const listed = await call("GET", "/v1/workflows");
    const workflow = (listed.json.workflows as { id: string; flowControl?: unknown }[]).find((w) => w.id === "flow.limited");
    expect(workflow?.flowControl).toEqual({ concurrency: [{ key: "{{ input.customerId }}", limit: 2 }] });
    expect((await call("GET", "/v1/workflows/nope/queues")).status).toBe(404);
  });

  it("returns the queued run for a repeated Idempotency-Key, and a cancelled queued run leaves the queue", async () => {
    const key = `idem-${unique()}`;
    const first = await startFlowRun("flow.limited", key);
    const second = await startFlowRun("flow.limited", key);
    const queued = await startFlowRun("flow.limited", key, { idempotencyKey: `k-${key}` });
    const again = await startFlowRun("flow.limited", key, { idempotencyKey: `k-${key}` });
    expect(again.runId).toBe(queued.runId);
    expect(again).toMatchObject({ status: "waiting", waitReason: "concurrency", queue: { position: 1 } });
    const behind = await startFlowRun("flow.limited", key);
    expect(behind.queue?.position).toBe(2);

    const cancelled = await call("POST", `/v1/runs/${queued.runId}/cancel`, { body: {} });
    expect(cancelled.status).toBe(200);
    // The run behind it moved up.
    const view = await runStub(behind.runId, DEV_TENANT).status();
    expect(view.queue?.position).toBe(1);

    // Cancelling a running run frees its slot at once: the next queued run is admitted.
    await call("POST", `/v1/runs/${first.runId}/cancel`, { body: {} });
    const statuses = await waitForAll([first.runId, second.runId, behind.runId]);
    expect(statuses).toEqual(["cancelled", "completed", "completed"]);
    const queuedEvents = await eventsOf(queued.runId);
    expect(queuedEvents.some((e) => e.type === "RunStarted")).toBe(false);
    expect(queuedEvents.at(-1)?.type).toBe("RunCancelled");
  });
});

/** The limited workflow on a 0 ms offline model, each limiter ask seen (or failed) by `watch` first. */
function watchAcquire(watch: (gate: FlowGate) => void): void {
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 0 }),
    workflows: catalogOf([LIMITED]),
    flow: (limiters) => ({
      ...limiters,
      acquire: async (ticket, gate, leaseMs) => {
        watch(gate);
        return limiters.acquire(ticket, gate, leaseMs);
      },
    }),
  });
}

describe("the start's admission", () => {
  it("a start with a free slot asks its key's limiter before the answer and is answered from its own events; the first slice records FlowAdmitted once", async () => {
    const asked: { scope: string; at: number }[] = [];
    watchAcquire((gate) => {
      asked.push({ scope: gate.scope ?? "workflow", at: Date.now() });
    });
    const run = await startFlowRun("flow.limited", `free-${unique()}`);
    const answeredAt = Date.now();
    // Answered from the start's own events: requested, not yet admitted in the log, not queued.
    expect(run).toMatchObject({ status: "pending" });
    expect(run.waitReason).toBeUndefined();
    expect(asked.filter((a) => a.scope === "workflow" && a.at <= answeredAt).length).toBeGreaterThanOrEqual(1);
    expect(await waitForAll([run.runId])).toEqual(["completed"]);
    // The slice asked again (idempotent) and logged the one admission, with the start's admission time.
    const events = await eventsOf(run.runId);
    const own = events.filter((e) => e.type === "FlowAdmitted" && !(e.payload as { scope?: string }).scope);
    expect(own).toHaveLength(1);
    const admittedAt = (own[0]?.payload as { admittedAt?: number } | undefined)?.admittedAt;
    expect(admittedAt).toBeLessThanOrEqual(answeredAt);
    expect(own[0]?.seq).toBeLessThan(events.find((e) => e.type === "RunStarted")?.seq ?? 0);
  });

  it("a limiter that cannot be reached at the start fails nothing: the run's alarm asks again and it completes", async () => {
    let refused = 0;
    watchAcquire(() => {
      if (refused++ === 0) throw new Error("limiter unreachable");
    });
    const run = await startFlowRun("flow.limited", `down-${unique()}`);
    expect(run.status).toBe("pending");
    expect(await waitForAll([run.runId])).toEqual(["completed"]);
    // Admitted once at its own key (the tenant's quota gates are admitted from the alarm as always).
    const events = await eventsOf(run.runId);
    const own = events.filter((e) => e.type === "FlowAdmitted" && !(e.payload as { scope?: string }).scope);
    expect(own).toHaveLength(1);
    expect(own[0]?.seq).toBeLessThan(events.find((e) => e.type === "RunStarted")?.seq ?? 0);
  });
});

describe("throttles", () => {
  it("starts at most 5 runs per second per key: 20 starts spread over at least 3 windows", async () => {
    const key = `t-${unique()}`;
    // At once, so they arrive within one window even on a loaded machine.
    const runs = await Promise.all(Array.from({ length: 20 }, () => startFlowRun("flow.throttled", key)));
    expect(runs.filter((r) => r.waitReason === "throttle").length).toBeGreaterThan(0);
    const statuses = await waitForAll(runs.map((r) => r.runId));
    expect(statuses.every((s) => s === "completed")).toBe(true);
    // The limiter's time of admission (the run's event follows once the run is woken).
    const admitted = (await Promise.all(runs.map((r) => eventsOf(r.runId)))).map(admittedAtOf);
    admitted.sort((a, b) => a - b);
    // Any 6 consecutive admissions span at least the period (a sliding window of 5 per second).
    for (let i = 5; i < admitted.length; i++) expect((admitted[i] as number) - (admitted[i - 5] as number)).toBeGreaterThanOrEqual(1_000);
    expect((admitted.at(-1) as number) - (admitted[0] as number)).toBeGreaterThanOrEqual(3_000);
  });
});
