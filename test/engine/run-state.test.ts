import { describe, expect, it } from "vitest";
import { PersistentMap, PersistentSet } from "../../src/engine/run-state/persistent-map.ts";
import {
  deriveRunState,
  foldRunEvents,
  INITIAL_RUN_STATE,
  RUN_STATE_TRANSITIONS,
  type RunState,
  type RunStateTransitions,
  waitingUntil,
} from "../../src/engine/run-state.ts";
import type { NewRunEvent, RunEvent, RunEventType } from "../../src/ports/run-events.ts";
import {
  ENDED_STATUSES,
  isEndedStatus,
  isSettledStatus,
  isWaitReason,
  RUN_STATUS_RANK,
  RUN_STATUSES,
  WAIT_REASONS,
} from "../../src/ports/run-status.ts";
import { completedRun, logOf } from "../inspector/events.ts";

describe("run-state transitions", () => {
  it("has one transition per event type (a map missing one does not compile)", () => {
    const { RunCancelled: _dropped, ...rest } = RUN_STATE_TRANSITIONS;
    // @ts-expect-error RunCancelled is not handled: the mapped type is exhaustive over the event union
    const incomplete: RunStateTransitions = rest;
    expect(Object.keys(incomplete)).not.toContain("RunCancelled");
    const types = Object.keys(RUN_STATE_TRANSITIONS) as RunEventType[];
    expect(types).toContain("OuterLoopCycleCompleted");
    expect(types).toContain("OccurrenceQueued");
    expect(types.every((t) => typeof RUN_STATE_TRANSITIONS[t] === "function")).toBe(true);
  });

  it("never changes the state it is given", () => {
    const events = logOf(completedRun);
    const states = [INITIAL_RUN_STATE];
    for (const event of events) states.push(foldRunEvents(states.at(-1) as RunState, [event]));
    const snapshots = states.map((s) => JSON.stringify(s));
    // Folding again from every intermediate state leaves each one as it was.
    for (const [i, state] of states.entries()) foldRunEvents(state, events.slice(i));
    expect(states.map((s) => JSON.stringify(s))).toEqual(snapshots);
    expect(states[8]?.scheduled.has("c1/a")).toBe(true);
    expect(states[7]?.scheduled.has("c1/a")).toBe(false);
  });

  it("gives the same state folded at once or event by event, and ignores an unknown type", () => {
    const events = logOf(completedRun);
    const once = deriveRunState(events);
    const stepwise = events.reduce((state, e) => foldRunEvents(state, [e]), INITIAL_RUN_STATE);
    expect(JSON.stringify(stepwise)).toBe(JSON.stringify(once));
    const unknown = { seq: 99, runId: "r", type: "SomethingNewer", at: 1, payload: {} } as unknown as RunEvent;
    expect(foldRunEvents(once, [unknown])).toBe(once);
  });

  it("folds a 3,000-branch fan-out in well under a second", () => {
    const events: RunEvent[] = [];
    let seq = 1;
    for (let i = 0; i < 3_000; i++)
      for (const type of ["StepScheduled", "StepStarted", "StepSucceeded"] as const)
        events.push({ seq, runId: "r", type, at: seq++, payload: { stepPath: `c1/fan[${i}]`, attempt: 1, output: i } } as RunEvent);
    const started = performance.now();
    const state = deriveRunState(events);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(state.stepOutputs.get("c1/fan[2999]")).toBe(2_999);
    expect(state.steps.size).toBe(3_000);
  });
});

describe("PersistentMap and PersistentSet", () => {
  it("set returns a copy and keeps insertion order, a replaced key keeping its place", () => {
    const a = PersistentMap.of([
      ["x", 1],
      ["y", 2],
    ]);
    const b = a.set("x", 3).set("z", 4);
    expect([...a]).toEqual([
      ["x", 1],
      ["y", 2],
    ]);
    expect([...b]).toEqual([
      ["x", 3],
      ["y", 2],
      ["z", 4],
    ]);
    expect([b.size, b.get("z"), b.has("w")]).toEqual([3, 4, false]);
    const s = PersistentSet.empty().add("p");
    expect([s.has("p"), PersistentSet.empty().has("p"), [...s.add("q")]]).toEqual([true, false, ["p", "q"]]);
  });

  it("holds thousands of keys, colliding slots included", () => {
    let map = PersistentMap.empty<number>();
    for (let i = 0; i < 5_000; i++) map = map.set(`k${i}`, i);
    expect(map.size).toBe(5_000);
    for (let i = 0; i < 5_000; i += 7) expect(map.get(`k${i}`)).toBe(i);
    expect([...map.keys()].slice(0, 3)).toEqual(["k0", "k1", "k2"]);
  });
});

describe("run statuses", () => {
  it("one list: every status ranked, the ended ones last", () => {
    expect(Object.keys(RUN_STATUS_RANK).sort()).toEqual([...RUN_STATUSES].sort());
    expect(ENDED_STATUSES.every((s) => RUN_STATUS_RANK[s] === 3 && isEndedStatus(s) && isSettledStatus(s))).toBe(true);
    expect([isEndedStatus("waiting"), isSettledStatus("waiting"), isEndedStatus("running"), isEndedStatus("nonsense")]).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });
});

describe("waits: status `waiting` and its reason, from the events alone", () => {
  const digest = `sha256:${"a".repeat(64)}` as const;
  /** Compiled and running one step, `c1/a` (the first 9 events of the completed run: up to its StepStarted). */
  const running = completedRun.slice(0, 9);
  const asked = (approvalId: string, stepPath = "c1/a", expiresAt = 90_000): NewRunEvent => ({
    type: "ApprovalRequested",
    payload: { approvalId, stepPath, tool: "refund", args: { amount: 5 }, argsHash: digest, expiresAt },
  });
  const decided = (approvalId: string, decision: "approved" | "denied" = "approved"): NewRunEvent => ({
    type: "ApprovalDecided",
    payload: { approvalId, decision, argsHash: digest },
  });
  /** Status and reason after each event of `tail`, following `head`. */
  function trace(head: readonly NewRunEvent[], tail: readonly NewRunEvent[]): string[] {
    const events = logOf([...head, ...tail]);
    let state = deriveRunState(events.slice(0, head.length));
    return events.slice(head.length).map((e) => {
      state = foldRunEvents(state, [e]);
      return `${e.type}:${state.status}${state.waitReason ? `/${state.waitReason}` : ""}`;
    });
  }

  it("approval: ApprovalRequested waits, ApprovalDecided (approved or denied) runs again", () => {
    expect(
      trace(running, [asked("apr_1"), decided("apr_1"), { type: "StepSucceeded", payload: { stepPath: "c1/a", attempt: 1, output: 1 } }]),
    ).toEqual(["ApprovalRequested:waiting/approval", "ApprovalDecided:running", "StepSucceeded:running"]);
    expect(trace(running, [asked("apr_1"), decided("apr_1", "denied")])).toEqual([
      "ApprovalRequested:waiting/approval",
      "ApprovalDecided:running",
    ]);
  });

  it("approval: an expired one ends when its step fails, and the run's end clears every wait", () => {
    const failed: NewRunEvent = {
      type: "StepFailed",
      payload: { stepPath: "c1/a", attempt: 1, error: { name: "E", code: "approval_timeout", message: "expired", retriable: false } },
    };
    const runFailed: NewRunEvent = { type: "RunFailed", payload: { causeCode: "step_failed", message: "expired" } };
    expect(trace(running, [asked("apr_1"), failed, runFailed])).toEqual([
      "ApprovalRequested:waiting/approval",
      "StepFailed:running",
      "RunFailed:failed",
    ]);
    const cancelled = deriveRunState(logOf([...running, asked("apr_1"), { type: "RunCancelled", payload: { reason: "no" } }]));
    expect([cancelled.status, cancelled.waitReason, cancelled.stepWaits.size]).toEqual(["cancelled", null, 0]);
  });

  it("approval: two branches wait; the run waits until both are decided, and a decision for another approval id changes nothing", () => {
    const head = [...running, { type: "StepStarted", payload: { stepPath: "c1/f[1]", attempt: 1 } } as NewRunEvent];
    expect(
      trace(head, [asked("apr_a", "c1/f[0]"), asked("apr_b", "c1/f[1]", 50_000), decided("apr_zzz"), decided("apr_a"), decided("apr_b")]),
    ).toEqual([
      "ApprovalRequested:waiting/approval",
      "ApprovalRequested:waiting/approval",
      "ApprovalDecided:waiting/approval",
      "ApprovalDecided:waiting/approval",
      "ApprovalDecided:running",
    ]);
    const both = deriveRunState(logOf([...head, asked("apr_a", "c1/f[0]"), asked("apr_b", "c1/f[1]", 50_000)]));
    expect(waitingUntil(both)).toBe(50_000);
  });

  it("sleep: StepRetried with a later retryAt waits until the next StepStarted; a retry due at once is no sleep", () => {
    const error = { name: "E", code: "tool_error", message: "flaky", retriable: true };
    // logOf puts event i at 1000 + 100·i: the StepRetried below is the 10th event (at 1,900).
    const later: NewRunEvent = { type: "StepRetried", payload: { stepPath: "c1/a", attempt: 1, retryAt: 61_900, error } };
    const now: NewRunEvent = { type: "StepRetried", payload: { stepPath: "c1/a", attempt: 1, retryAt: 1_900, error } };
    const again: NewRunEvent = { type: "StepStarted", payload: { stepPath: "c1/a", attempt: 2 } };
    expect(trace(running, [later, again])).toEqual(["StepRetried:waiting/sleep", "StepStarted:running"]);
    expect(waitingUntil(deriveRunState(logOf([...running, later])))).toBe(61_900);
    expect(trace(running, [now, again])).toEqual(["StepRetried:running", "StepStarted:running"]);
  });

  it("an approval outranks a sleep: the run reports `approval` while both are open", () => {
    const error = { name: "E", code: "tool_error", message: "flaky", retriable: true };
    const sleep: NewRunEvent = { type: "StepRetried", payload: { stepPath: "c1/b", attempt: 1, retryAt: 99_000, error } };
    expect(
      trace(running, [sleep, asked("apr_1"), decided("apr_1"), { type: "StepStarted", payload: { stepPath: "c1/b", attempt: 2 } }]),
    ).toEqual(["StepRetried:waiting/sleep", "ApprovalRequested:waiting/approval", "ApprovalDecided:waiting/sleep", "StepStarted:running"]);
  });

  it("a new cycle closes the waits of the cycle before it: its steps will not go on", () => {
    const error = { name: "E", code: "tool_error", message: "flaky", retriable: true };
    const sleep: NewRunEvent = { type: "StepRetried", payload: { stepPath: "c1/b", attempt: 1, retryAt: 99_000, error } };
    const replan: NewRunEvent = {
      type: "OuterLoopCycleCompleted",
      payload: { cycleNumber: 1, status: "failed", output: null, decision: "replan" },
    };
    expect(trace(running, [sleep, replan])).toEqual(["StepRetried:waiting/sleep", "OuterLoopCycleCompleted:compiling"]);
    expect(deriveRunState(logOf([...running, sleep, replan])).stepWaits.size).toBe(0);
  });

  it("trigger: a section that ran every queued occurrence waits; a queued trigger runs it again", () => {
    const section: NewRunEvent[] = [...completedRun.slice(0, 7), { type: "OccurrenceStarted", payload: { occurrenceId: "o1" } }];
    const queued = (id: string): NewRunEvent => ({
      type: "OccurrenceQueued",
      payload: { occurrenceId: id, input: {}, trigger: { kind: "http" } },
    });
    expect(
      trace(section, [
        queued("o2"),
        { type: "OccurrenceCompleted", payload: { occurrenceId: "o1", output: 1 } },
        { type: "OccurrenceStarted", payload: { occurrenceId: "o2" } },
        { type: "OccurrenceFailed", payload: { occurrenceId: "o2", causeCode: "step_failed", message: "x", rearmed: true } },
        queued("o3"),
        { type: "OccurrenceStarted", payload: { occurrenceId: "o3" } },
        asked("apr_3", "o3/c1/a"),
        queued("o4"),
        decided("apr_3"),
        { type: "OccurrenceCompleted", payload: { occurrenceId: "o3", output: 3 } },
      ]),
    ).toEqual([
      "OccurrenceQueued:running",
      // o2 was queued before o1 ended: the section goes straight on, it never waits.
      "OccurrenceCompleted:running",
      "OccurrenceStarted:running",
      "OccurrenceFailed:waiting/trigger",
      "OccurrenceQueued:running",
      "OccurrenceStarted:running",
      "ApprovalRequested:waiting/approval",
      // A trigger arriving while an occurrence waits for a decision does not end that wait.
      "OccurrenceQueued:waiting/approval",
      "ApprovalDecided:running",
      "OccurrenceCompleted:running",
    ]);
  });

  it("settles a caller waiting on it only for a section's trigger wait: an approval or a sleep is mid-work", () => {
    expect([
      isSettledStatus("waiting", "approval"),
      isSettledStatus("waiting", "trigger"),
      isSettledStatus("waiting", "sleep"),
      isSettledStatus("waiting"),
      isSettledStatus("running", null),
      isSettledStatus("waiting", "signal"),
      isSettledStatus("waiting", "child"),
    ]).toEqual([false, true, false, true, false, false, false]);
    expect(WAIT_REASONS).toEqual(["approval", "sleep", "trigger", "signal", "child", "concurrency", "throttle", "rate_limit"]);
    expect([isWaitReason("sleep"), isWaitReason("nap")]).toEqual([true, false]);
  });
});
