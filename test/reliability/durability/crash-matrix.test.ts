/**
 * Issue #10, item 1 — the crash matrix. The golden run (planner + 20 executed steps: model, tool,
 * code.run repaired by a fixer, a 16-branch fan-out) is aborted with `ctx.abort()` at every event
 * boundary in turn and resumed from the object's own alarm with fresh stubs:
 *  - after each durable write (one event, or a batch the engine writes at once), and
 *  - before each event that records an outbound call's answer (the call happened, its answer was
 *    not yet logged: the one request that may be repeated, with the same key).
 * Pass: the log equals the golden one (timestamps and run ids masked), seq dense, nothing
 * duplicated, and the counting sink saw every golden request exactly once, but the in-flight one.
 */

import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import type { RunView } from "../../../src/ports/run-handle.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { rawRunStub, runStub } from "../../support/drive.ts";
import { runChildCrash } from "./support/child-crash.ts";
import { driveThroughFaults } from "./support/drive-through-faults.ts";
import { type GoldenOutcome, runGolden } from "./support/golden-do-run.ts";
import { duplicatedEvents, isDense, maskEvents } from "./support/masked-events.ts";
import { startWaitRun, wireWaits } from "./support/wait-runs.ts";

afterEach(() => overrideWiring({}));

/** Events written right after an outbound call answered: a crash just before one loses that answer. */
const ANSWER_EVENTS = new Set(["harness.model.responded", "harness.tool_call.succeeded", "StepSucceeded"]);

let golden: GoldenOutcome;

beforeAll(async () => {
  golden = await runGolden("run_golden_matrix");
}, 120_000);

function expectSameAsGolden(run: GoldenOutcome, label: string) {
  expect(run.view.status, label).toBe("completed");
  expect(run.alarmErrors, label).toBe(0);
  expect(run.view.output, label).toEqual(golden.view.output);
  expect(isDense(run.events), label).toBe(true);
  expect(duplicatedEvents(run.events), label).toEqual([]);
  expect(maskEvents(run.events), label).toEqual(maskEvents(golden.events));
}

/** Requests the sink saw more often than in the golden run, and requests it never saw there. */
function extraDeliveries(run: GoldenOutcome): { repeated: string[]; unknown: string[] } {
  const repeated: string[] = [];
  const unknown: string[] = [];
  for (const [key, n] of run.deliveries) {
    const expected = golden.deliveries.get(key);
    if (expected === undefined) unknown.push(key);
    else if (n > expected) repeated.push(`${key} ×${n}`);
  }
  return { repeated, unknown };
}

describe("crash matrix (item 1): abort the run object at every event boundary and resume", () => {
  it("the golden run has the shape the matrix relies on", () => {
    const types = golden.events.map((e) => e.type);
    expect(golden.view.status).toBe("completed");
    expect(types.filter((t) => t === "StepSucceeded")).toHaveLength(21); // 4 steps + 16 branches + the fan-out itself
    expect(golden.events.some((e) => e.type === "harness.session.completed" && (e.payload as { role: string }).role === "fixer")).toBe(
      true,
    );
    // Every golden request reached the sink once: 2 planner turns, 2 worker answers, 1 fix, 17 tool calls.
    expect([...golden.deliveries.values()].every((n) => n === 1)).toBe(true);
    expect(golden.deliveries.size).toBe(2 + 2 + 1 + 17);
  });

  it("after each durable write: same log, and no request repeated", async () => {
    // Event boundaries where the log is durable: the end of each write (the engine batches some events).
    const boundaries = golden.batches.slice(0, -1).map((batch) => batch.at(-1) as number);
    for (const k of boundaries) {
      let crashed = false;
      const run = await runGolden(`run_after_${k}`, {
        afterAppend: (events, ctx) => {
          if (!crashed && events.some((e) => e.seq === k)) {
            crashed = true;
            ctx.abort();
          }
        },
      });
      const label = `crash after event ${k} (${golden.events[k - 1]?.type})`;
      expect(crashed, label).toBe(true);
      expectSameAsGolden(run, label);
      expect(extraDeliveries(run), label).toEqual({ repeated: [], unknown: [] });
    }
    console.log(
      JSON.stringify({
        item: 1,
        mode: "after-write",
        goldenEvents: golden.events.length,
        writes: golden.batches.length,
        boundariesCrashed: boundaries.length,
      }),
    );
  }, 900_000);

  it("before each answer is logged: only the call in flight is made again, with the same key", async () => {
    const targets = golden.events.filter((e) => ANSWER_EVENTS.has(e.type));
    let reissued = 0;
    for (const target of targets) {
      let crashed = false;
      let durable = 0;
      const run = await runGolden(`run_before_${target.seq}`, {
        afterAppend: (events) => {
          durable = Math.max(durable, ...events.map((e) => e.seq));
        },
        beforeAppend: (events, ctx) => {
          if (!crashed && durable === target.seq - 1 && events.some((e) => e.type === target.type)) {
            crashed = true;
            ctx.abort();
          }
        },
      });
      const label = `crash before event ${target.seq} (${target.type})`;
      expect(crashed, label).toBe(true);
      expectSameAsGolden(run, label);
      const extra = extraDeliveries(run);
      expect(extra.unknown, label).toEqual([]);
      const inFlight = inFlightKey(target);
      if (inFlight === null) expect(extra.repeated, label).toEqual([]);
      else {
        // The call whose answer was lost is issued again, and only it: same prompt digest or tool key.
        expect(extra.repeated, label).toEqual([`${inFlight} ×2`]);
        reissued += 1;
      }
    }
    console.log(JSON.stringify({ item: 1, mode: "before-answer", boundariesCrashed: targets.length, inFlightReissued: reissued }));
  }, 900_000);
});

/** The sink key of the request whose answer `event` records, when that request lands on the sink. */
function inFlightKey(event: RunEvent): string | null {
  const at = golden.events.indexOf(event);
  if (event.type === "harness.model.responded") {
    // The sink keys models by role and prompt digest; find this call's key by its position among model calls.
    const modelCalls = golden.events.slice(0, at + 1).filter((e) => e.type === "harness.model.responded").length;
    return [...golden.deliveries.keys()].filter((k) => k.startsWith("model:"))[modelCalls - 1] ?? null;
  }
  if (event.type === "StepSucceeded") {
    const path = (event.payload as { stepPath: string }).stepPath;
    const key = `tool:<run>:${path}:a1`;
    return golden.deliveries.has(key) ? key : null;
  }
  return null;
}

/** Waits for a run object's view to satisfy `test`, its alarms firing on their own. */
async function viewWhen(runId: string, test: (view: RunView) => boolean): Promise<RunView> {
  for (let i = 0; i < 200; i++) {
    // A crash resets the object under a call: a fresh stub next time.
    const view = await runStub(runId)
      .status()
      .catch(() => null);
    if (view && test(view)) return view;
    await runStub(runId)
      .waitForEnd(25)
      .catch(() => undefined);
  }
  throw new Error(`run ${runId} never got there`);
}

describe("crash matrix, waits (issue 26): a signal's append and its answer, a sleep", () => {
  it("a crash between a signal's durable append and its answer: the resend with its id is the same signal, delivered once", async () => {
    const runId = "run_crash_signal";
    let crashed = false;
    wireWaits({
      afterAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "SignalReceived")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    await startWaitRun(runId, [{ id: "wait", uses: "wait.signal", with: { signals: ["manager.decision"], timeoutMs: 600_000 } }]);
    await viewWhen(runId, (v) => v.waitReason === "signal");
    const lost = await runStub(runId)
      .sendSignal({ name: "manager.decision", payload: { approved: true }, id: "sig-1" })
      .then(
        () => "answered",
        (error: { durableObjectReset?: boolean }) => (error.durableObjectReset ? "reset" : String(error)),
      );
    expect(crashed).toBe(true);
    expect(lost).toBe("reset");
    // The sender retries: the signal was durable before the crash, so this is it again.
    const again = await runStub(runId).sendSignal({ name: "manager.decision", payload: { approved: true }, id: "sig-1" });
    expect(again).toMatchObject({ created: false, signal: { id: "sig-1" } });
    const { view, alarmErrors } = await driveThroughFaults(runId);
    expect(alarmErrors).toBe(0);
    expect(view).toMatchObject({ status: "completed", output: { signal: "manager.decision", payload: { approved: true } } });
    const events = await runStub(runId).events({ limit: 1_000 });
    expect(events.filter((e) => e.type === "SignalReceived")).toHaveLength(1);
    expect(events.filter((e) => e.type === "SignalConsumed")).toHaveLength(1);
    expect(isDense(events)).toBe(true);
  });

  it("a crash before a signal's append stores nothing; the resend creates it", async () => {
    const runId = "run_crash_signal_before";
    let crashed = false;
    wireWaits({
      beforeAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "SignalReceived")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    await startWaitRun(runId, [{ id: "wait", uses: "wait.signal", with: { signals: ["manager.decision"], timeoutMs: 600_000 } }]);
    await viewWhen(runId, (v) => v.waitReason === "signal");
    await runStub(runId)
      .sendSignal({ name: "manager.decision", payload: { approved: false }, id: "sig-2" })
      .catch(() => undefined);
    expect(crashed).toBe(true);
    expect((await runStub(runId).events({ limit: 1_000 })).some((e) => e.type === "SignalReceived")).toBe(false);
    expect(await runStub(runId).sendSignal({ name: "manager.decision", payload: { approved: false }, id: "sig-2" })).toMatchObject({
      created: true,
    });
    const { view } = await driveThroughFaults(runId);
    expect(view).toMatchObject({ status: "completed", output: { signal: "manager.decision", payload: { approved: false } } });
  });

  it("a crash mid-sleep (right after WaitStarted): the deadline and its alarm survive; the step wakes at it, not at restart + duration", async () => {
    const runId = "run_crash_sleep";
    let crashed = false;
    wireWaits({
      afterAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "WaitStarted")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    await startWaitRun(runId, [{ id: "nap", uses: "wait.sleep", with: { durationMs: 400 } }]);
    await viewWhen(runId, () => crashed);
    const started = (await runStub(runId).events({ limit: 1_000 })).find((e) => e.type === "WaitStarted");
    expect(started).toBeDefined();
    const until = (started as RunEvent<"WaitStarted">).payload.until;
    // The slice died before it set the wake-up: the safety alarm armed before it drove resumes it.
    const armed = await runInDurableObject(rawRunStub(runId), (_instance, state) => state.storage.getAlarm());
    expect(armed).not.toBeNull();
    const { view } = await driveThroughFaults(runId);
    expect(view.status).toBe("completed");
    const events = await runStub(runId).events({ limit: 1_000 });
    expect(events.filter((e) => e.type === "WaitStarted")).toHaveLength(1);
    const woke = Date.parse((view.output as { wokeAt: string }).wokeAt);
    expect(woke).toBeGreaterThanOrEqual(until);
  });
});

describe("crash matrix, child runs (workflow.run): the boundaries between a parent and its child", () => {
  const count = (events: readonly RunEvent[], type: string) => events.filter((e) => e.type === type).length;

  it("between the child's start being recorded and the child starting: the resumed parent starts the same child once", async () => {
    let crashed = false;
    const run = await runChildCrash("crash before the child starts", {
      afterAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "ChildRunStarted")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    expect(crashed).toBe(true);
    expect(run.parent).toMatchObject({ status: "completed", output: { echoed: "crash before the child starts" } });
    expect(run.parent.children).toHaveLength(1);
    expect(count(run.parentEvents, "ChildRunStarted")).toBe(1);
    expect(count(run.parentEvents, "ChildRunEnded")).toBe(1);
    expect(count(run.childEvents, "RunRequested")).toBe(1);
    expect(isDense(run.parentEvents) && isDense(run.childEvents)).toBe(true);
  }, 120_000);

  it("the child ends while the parent is down: its notification is lost, retried from the child's alarm, recorded once", async () => {
    let crashed = false;
    const run = await runChildCrash("crash when the child ends", {
      beforeAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "ChildRunEnded")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    expect(crashed).toBe(true);
    expect(run.child.status).toBe("completed");
    expect(run.parent).toMatchObject({ status: "completed", output: { echoed: "crash when the child ends" } });
    expect(count(run.parentEvents, "ChildRunEnded")).toBe(1);
    expect(count(run.childEvents, "RunRequested")).toBe(1);
    expect(duplicatedEvents(run.parentEvents)).toEqual([]);
  }, 120_000);
});
