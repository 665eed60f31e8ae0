import { describe, expect, it } from "vitest";
import { PersistentMap, PersistentSet } from "../../src/engine/run-state/persistent-map.ts";
import {
  deriveRunState,
  foldRunEvents,
  INITIAL_RUN_STATE,
  RUN_STATE_TRANSITIONS,
  type RunState,
  type RunStateTransitions,
} from "../../src/engine/run-state.ts";
import type { RunEvent, RunEventType } from "../../src/ports/run-events.ts";
import { ENDED_STATUSES, isEndedStatus, isSettledStatus, RUN_STATUS_RANK, RUN_STATUSES } from "../../src/ports/run-status.ts";
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
