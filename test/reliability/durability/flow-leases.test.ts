import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { overrideWiring, type WiringOverrides } from "../../../src/wiring.ts";
import { rawRunStub, runStub } from "../../support/drive.ts";
import {
  DEV_TENANT,
  eventsOf,
  flowWorkflow,
  limiterStub,
  maxOverlap,
  runningInterval,
  startFlowRun,
  waitForAll,
} from "../../support/flow-workflows.ts";

// Issue 28, "never leaks" and "the limiter's crash loses nothing": a run object that crashed
// holding a slot gives it up within the lease expiry (the limiter asks the run, finds it idle and
// admits the next), and resumes after; a limiter object aborted with runs queued keeps its queue
// and admits each of them exactly once.

const WORKFLOW = flowWorkflow("flow.single", { concurrency: { key: "{{ input.customerId }}", limit: 1 } });
const LEASE_MS = 2_000;

/** The clock of runs and limiters: real time plus what a test skips ahead (their alarms are then run by hand). */
let skipped = 0;
const clock = { now: () => Date.now() + skipped };

function wiring(extra: WiringOverrides = {}): void {
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([WORKFLOW]),
    clock,
    flowLeaseMs: LEASE_MS,
    ...extra,
  });
}

beforeEach(() => {
  skipped = 0;
  wiring();
});
afterEach(() => overrideWiring({}));

const unique = () => crypto.randomUUID().slice(0, 8);

/** Waits (a short RPC wait, not a sleep of the test's own) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await runStub("run_flow_tick", DEV_TENANT).waitForEnd(10);
  expect(done()).toBe(true);
}

describe("flow-control leases", () => {
  it("frees the slot of a run whose object crashed within the lease expiry; the run resumes and completes after", async () => {
    const key = `crash-${unique()}`;
    let crashedRun: string | null = null;
    let crashes = 0;
    wiring({
      afterAppend: (events, ctx) => {
        // The first run's object dies as its planner starts, holding the key's only slot.
        if (crashes === 0 && crashedRun !== null && events.some((e) => e.runId === crashedRun && e.type === "harness.session.started")) {
          crashes++;
          ctx.abort();
        }
      },
    });
    const holder = await startFlowRun("flow.single", key);
    crashedRun = holder.runId;
    await until(() => crashes === 1);
    const queued = await startFlowRun("flow.single", key);
    expect(queued).toMatchObject({ status: "waiting", waitReason: "concurrency", queue: { position: 1 } });

    // The lease runs out: the limiter asks the crashed run's object, which has no slice in flight.
    skipped += LEASE_MS + 1;
    await runDurableObjectAlarm(limiterStub(DEV_TENANT, "flow.single", "concurrency", 0, key));
    expect(await waitForAll([queued.runId], 30_000)).toEqual(["completed"]);

    // The crashed run resumes (its object's safety alarm), passes its gate again and completes.
    await runDurableObjectAlarm(rawRunStub(holder.runId, DEV_TENANT));
    expect(await waitForAll([holder.runId], 30_000)).toEqual(["completed"]);
    const holderEvents = await eventsOf(holder.runId);
    // It went to the back of the queue and was admitted again when the other run ended, before it
    // asked (so its log need not show the wait); either way it was admitted by its gate.
    expect(holderEvents.filter((e) => e.type === "FlowAdmitted").length).toBeGreaterThanOrEqual(1);
    // At no instant did the two run at once: the crashed run ran (RunStarted) only after the slot came back.
    const intervals = [runningInterval(holderEvents), runningInterval(await eventsOf(queued.runId))].filter((i) => i !== null);
    expect(intervals).toHaveLength(2);
    expect(maxOverlap(intervals)).toBe(1);
  });

  it("a limiter object aborted with runs queued loses none of them and admits each exactly once", async () => {
    const key = `limiter-crash-${unique()}`;
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await startFlowRun("flow.single", key));
    expect(runs.slice(1).map((r) => r.queue?.position)).toEqual([1, 2, 3]);
    const limiter = limiterStub(DEV_TENANT, "flow.single", "concurrency", 0, key);
    await runInDurableObject(limiter, (_instance, state) => state.abort()).catch(() => undefined);

    // A fresh instance reads the same queue from its storage.
    const fresh = limiterStub(DEV_TENANT, "flow.single", "concurrency", 0, key);
    const positions = await Promise.all(runs.map((r) => fresh.position(r.runId)));
    expect(positions.slice(1)).toEqual([1, 2, 3]);

    expect(await waitForAll(runs.map((r) => r.runId))).toEqual(["completed", "completed", "completed", "completed"]);
    const all = await Promise.all(runs.map((r) => eventsOf(r.runId)));
    for (const events of all) {
      // Once at its key (and once at each of its tenant's quota gates, which come after).
      expect(events.filter((e) => e.type === "FlowAdmitted" && e.payload.scope === undefined)).toHaveLength(1);
      expect(events.filter((e) => e.type === "RunCompleted")).toHaveLength(1);
    }
    const intervals = all.map((e) => runningInterval(e)).filter((i) => i !== null);
    expect(maxOverlap(intervals)).toBe(1);
  });
});
