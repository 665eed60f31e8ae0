import { describe, expect, it } from "vitest";
import { deriveRunState, runStatusOf } from "../../src/engine/run-state.ts";
import { applyRunEvent, emptyRunView, reduceRunEvents } from "../../src/inspector/run-view.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";
import { completedRun, logOf, usage } from "./events.ts";

const digest = `sha256:${"d".repeat(64)}` as const;

/** Cycle 1 ran a → b and asked for another plan; cycle 2 compiles, registers wfver_2 and starts. */
const replannedRun: NewRunEvent[] = [
  ...completedRun.slice(0, 17),
  {
    type: "OuterLoopCycleCompleted",
    payload: { cycleNumber: 1, status: "completed", output: { n: 1 }, summary: "too short", decision: "replan" },
  },
  {
    type: "harness.session.started",
    payload: { sessionId: "p2", role: "planner", kind: "plan", manifestHash: digest, manifest: {}, cycle: 2 },
  },
  { type: "harness.session.completed", payload: { sessionId: "p2", role: "planner", output: {} } },
  {
    type: "WorkflowVersionRegistered",
    payload: { versionId: "wfver_2", versionHash: digest, lockHash: digest, definitionHash: digest, warnings: [] },
  },
  { type: "RunStarted", payload: { versionId: "wfver_2", lockHash: digest, cycle: 2 } },
  { type: "StepStarted", payload: { stepPath: "c2/x", attempt: 1 } },
  { type: "StepSucceeded", payload: { stepPath: "c2/x", attempt: 1, output: "x" } },
  { type: "OuterLoopCycleCompleted", payload: { cycleNumber: 2, status: "completed", output: { n: 2 }, decision: "accept" } },
  {
    type: "RunCompleted",
    payload: {
      output: { n: 2 },
      usage: usage(30, 12),
      versionId: "wfver_2",
    },
  },
];

/** A section: o1 completes, the run waits, o2 is queued, starts and fails (the section goes on), o3 is queued. */
const sectionRun: NewRunEvent[] = [
  ...completedRun.slice(0, 7),
  { type: "OccurrenceStarted", payload: { occurrenceId: "o1" } },
  { type: "StepStarted", payload: { stepPath: "o1/c1/a", attempt: 1 } },
  { type: "StepSucceeded", payload: { stepPath: "o1/c1/a", attempt: 1, output: "first" } },
  { type: "OccurrenceCompleted", payload: { occurrenceId: "o1", output: "first" } },
  { type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: { q: 2 }, trigger: { kind: "webhook", id: "msg_2" } } },
  { type: "OccurrenceStarted", payload: { occurrenceId: "o2" } },
  { type: "OccurrenceFailed", payload: { occurrenceId: "o2", causeCode: "step_failed", message: "boom", rearmed: true } },
  { type: "OccurrenceQueued", payload: { occurrenceId: "o3", input: { q: 3 }, trigger: { kind: "http" } } },
];

/** The view's run-level fields after every prefix of a log, next to the engine's fold of that prefix. */
function agreement(events: readonly RunEvent[]) {
  const view = emptyRunView();
  return events.map((event, i) => {
    applyRunEvent(view, event);
    const state = deriveRunState(events.slice(0, i + 1));
    return {
      seq: event.seq,
      view: [view.status, view.waitReason, view.usage, view.offlineModels],
      // A paused run's status is the fold's `paused` over its underlying status (runStatusOf), as everywhere.
      engine: [runStatusOf(state), state.waitReason, state.usage, state.offlineModels],
    };
  });
}

describe("the inspector's view is built on the engine's fold", () => {
  it("shows outer-loop cycles: a replan sends the run back to compiling, and each finished cycle is listed", () => {
    const events = logOf(replannedRun);
    const replan = events.findIndex((e) => e.type === "OuterLoopCycleCompleted") + 1;
    const compiling = reduceRunEvents(events.slice(0, replan));
    expect(compiling.status).toBe("compiling");
    expect(compiling.cycles).toEqual([
      { cycleNumber: 1, status: "completed", output: { n: 1 }, summary: "too short", decision: "replan", endedAt: events[replan - 1]?.at },
    ]);
    // The DAG keeps cycle 1's steps until cycle 2 starts.
    expect(compiling).toMatchObject({ cycle: 1, versionId: "wfver_1" });

    const view = reduceRunEvents(events);
    expect(view).toMatchObject({ status: "completed", cycle: 2, versionId: "wfver_2" });
    expect(view.cycles.map((c) => [c.cycleNumber, c.decision])).toEqual([
      [1, "replan"],
      [2, "accept"],
    ]);
    expect(Object.keys(view.steps)).toEqual(["x"]);
  });

  it("shows queued occurrences, and a queued one moves a waiting section back to running", () => {
    const events = logOf(sectionRun);
    const view = emptyRunView();
    const statuses: string[] = [];
    for (const event of events) {
      applyRunEvent(view, event);
      if (event.type.startsWith("Occurrence")) statuses.push(`${event.type}:${view.status}${view.waitReason ? `/${view.waitReason}` : ""}`);
    }
    expect(statuses).toEqual([
      "OccurrenceStarted:running",
      "OccurrenceCompleted:waiting/trigger",
      "OccurrenceQueued:running",
      "OccurrenceStarted:running",
      "OccurrenceFailed:waiting/trigger",
      "OccurrenceQueued:running",
    ]);
    const at = (i: number) => events[i]?.at ?? null;
    expect(view.occurrences).toEqual([
      expect.objectContaining({
        id: "o1",
        status: "completed",
        queuedAt: at(0),
        startedAt: at(7),
        endedAt: at(10),
        output: "first",
        trigger: "http",
      }),
      expect.objectContaining({
        id: "o2",
        status: "failed",
        queuedAt: at(11),
        startedAt: at(12),
        endedAt: at(13),
        trigger: "webhook",
        failure: { causeCode: "step_failed", message: "boom" },
        rearmed: true,
      }),
      expect.objectContaining({ id: "o3", status: "queued", queuedAt: at(14), startedAt: null, endedAt: null }),
    ]);
  });

  it("lists no occurrences for a run that is no section", () => {
    const view = reduceRunEvents(logOf(completedRun));
    expect([view.occurrences, view.state.section]).toEqual([[], false]);
    expect(reduceRunEvents(logOf(sectionRun)).state.section).toBe(true);
  });

  it("agrees with the engine on status, usage and offline models after every event", () => {
    for (const log of [completedRun, replannedRun, sectionRun]) {
      for (const row of agreement(logOf(log))) expect(row.view, `seq ${row.seq}`).toEqual(row.engine);
    }
  });

  it("keeps the fold's state immutable: an earlier view's state is not changed by later events", () => {
    const events = logOf(completedRun);
    const view = reduceRunEvents(events.slice(0, 8));
    const before = view.state;
    const snapshot = JSON.stringify(before);
    reduceRunEvents(events.slice(8), view);
    expect(view.state).not.toBe(before);
    expect(JSON.stringify(before)).toBe(snapshot);
  });
});

describe("on the saved histories (test/histories)", () => {
  const saved = import.meta.glob("../histories/*.json", { eager: true, import: "default" }) as Record<string, { events: RunEvent[] }>;

  it("the view and the engine agree after every event of every saved run, outer-loop cycles included", () => {
    expect(Object.keys(saved).length).toBeGreaterThan(0);
    for (const [file, history] of Object.entries(saved)) {
      for (const row of agreement(history.events)) expect(row.view, `${file} seq ${row.seq}`).toEqual(row.engine);
      const view = reduceRunEvents(history.events);
      expect(view.cycles.length, file).toBe(deriveRunState(history.events).cyclesCompleted.length);
    }
  });
});
