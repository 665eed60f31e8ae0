import { describe, expect, it } from "vitest";
import { durationOf, TimelineBuilder, type TimelineEntry, timelineOf } from "../../src/inspector/timeline.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";
import { completedRun, logOf, usage } from "./events.ts";

describe("timelineOf", () => {
  it("pairs start and end events into entries with durations, in the order they began", () => {
    const entries = timelineOf(logOf(completedRun));
    expect(entries.map((e) => [e.kind, e.label, durationOf(e), e.outcome])).toEqual([
      ["run", "run of wf", 1_700, "ok"],
      ["compile", "compile", 600, "ok"],
      ["session", "planner session", 300, "ok"],
      ["model", "model gpt-5 (turn 1)", 100, "ok"],
      ["compile", "version wfver_1 registered", 0, "info"],
      ["step", "step c1/a attempt 1", 500, "ok"],
      ["session", "worker session for c1/a", 300, "ok"],
      ["model", "model gpt-4o-mini (turn 1)", 100, "ok"],
      ["step", "step c1/b attempt 1", 100, "ok"],
      ["run", "run completed", 0, "ok"],
    ]);
    expect(entries.find((e) => e.label.startsWith("model gpt-4o"))).toMatchObject({ stepPath: "c1/a", detail: "20 in / 7 out tokens" });
  });

  it("leaves what is still going open (null duration) while the run executes", () => {
    const entries = timelineOf(logOf(completedRun.slice(0, 11)));
    const open = entries.filter((e) => durationOf(e) === null).map((e) => e.label);
    expect(open).toEqual(["run of wf", "step c1/a attempt 1", "worker session for c1/a", "model gpt-4o-mini (turn 1)"]);
  });

  it("gives each section occurrence an entry with its duration and, when it failed, its cause", () => {
    const entries = timelineOf(
      logOf([
        ...completedRun.slice(0, 7),
        { type: "OccurrenceStarted", payload: { occurrenceId: "o1" } },
        { type: "OccurrenceCompleted", payload: { occurrenceId: "o1", output: {} } },
        { type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: {}, trigger: { kind: "webhook" } } },
        { type: "OccurrenceStarted", payload: { occurrenceId: "o2" } },
        { type: "OccurrenceFailed", payload: { occurrenceId: "o2", causeCode: "step_failed", message: "boom", rearmed: true } },
      ]),
    ).filter((e) => e.kind === "section");
    expect(entries.map((e) => [e.label, durationOf(e), e.outcome, e.detail])).toEqual([
      ["occurrence o1", 100, "ok", null],
      ["occurrence o2 queued", 0, "info", "trigger webhook"],
      ["occurrence o2", 100, "failed", "step_failed: boom (the section goes on)"],
    ]);
  });

  it("times an approval from its request to its decision", () => {
    const digest = `sha256:${"f".repeat(64)}` as const;
    const entries = timelineOf(
      logOf([
        ...completedRun.slice(0, 7),
        {
          type: "ApprovalRequested",
          payload: { approvalId: "ap1", stepPath: "c1/refund", tool: "payments.refund", args: {}, argsHash: digest, expiresAt: 9_999 },
        },
        { type: "ApprovalDecided", payload: { approvalId: "ap1", decision: "approved", argsHash: digest } },
      ]),
    );
    expect(entries.find((e) => e.kind === "approval")).toMatchObject({
      label: "approval of payments.refund for c1/refund",
      outcome: "ok",
      detail: "approved",
      startedAt: 1_700,
      endedAt: 1_800,
    });
  });

  it("shows retries, fixer sessions, failures with their cause, and unknown types such as sections", () => {
    const digest = `sha256:${"d".repeat(64)}` as const;
    const events = logOf([
      ...completedRun.slice(0, 7),
      { type: "StepStarted", payload: { stepPath: "c1/a", attempt: 1 } },
      {
        type: "StepRetried",
        payload: { stepPath: "c1/a", attempt: 1, retryAt: 2_450, error: { name: "E", message: "flaky", retriable: true } },
      },
      {
        type: "harness.session.started",
        payload: { sessionId: "f", role: "fixer", kind: "fix_step", manifestHash: digest, manifest: {}, stepPath: "c1/a" },
      },
      { type: "RunFailed", payload: { causeCode: "step_failed", message: "boom" } },
    ]);
    const withSection = [
      ...events,
      { seq: 99, runId: "run_test", at: 9_000, type: "SectionOccurrenceStarted", payload: {} } as unknown as RunEvent,
    ];
    const entries = timelineOf(withSection);
    expect(entries.find((e) => e.kind === "retry")).toMatchObject({ label: "retry c1/a (attempt 2)", detail: "after 650 ms" });
    expect(entries.find((e) => e.label === "step c1/a attempt 1")).toMatchObject({ outcome: "failed", detail: "flaky" });
    expect(entries.find((e) => e.kind === "fixer")).toMatchObject({ label: "fixer session for c1/a", outcome: "failed", endedAt: 2_000 });
    expect(entries.find((e) => e.label === "run failed")).toMatchObject({ outcome: "failed", detail: "step_failed: boom" });
    expect(entries.at(-1)).toMatchObject({ kind: "section", label: "SectionOccurrenceStarted" });
  });
});

describe("timelineOf, on the engine's fold", () => {
  it("times a replanned cycle's compile, from the replan to the next cycle's start", () => {
    const digest = `sha256:${"e".repeat(64)}` as const;
    const entries = timelineOf(
      logOf([
        ...completedRun.slice(0, 17),
        {
          type: "OuterLoopCycleCompleted",
          payload: { cycleNumber: 1, status: "completed", output: {}, decision: "replan", summary: "again" },
        },
        { type: "RunStarted", payload: { versionId: "wfver_2", lockHash: digest, cycle: 2 } },
      ]),
    );
    expect(entries.filter((e) => e.kind === "compile" || e.kind === "run").map((e) => [e.label, durationOf(e), e.outcome])).toEqual([
      ["run of wf", null, "running"],
      ["compile", 600, "ok"],
      ["version wfver_1 registered", 0, "info"],
      ["cycle 1 completed: replan", 0, "info"],
      ["compile cycle 2", 100, "ok"],
      ["cycle 2 started", 0, "info"],
    ]);
  });

  it("ends a failed cycle's compile as failed, with the cause, and times the re-plan's compile", () => {
    const digest = `sha256:${"e".repeat(64)}` as const;
    const failure = { causeCode: "planner_validation_exhausted", message: "no valid LWIR after 4 submissions" } as const;
    const entries = timelineOf(
      logOf([
        ...completedRun.slice(0, 4),
        { type: "harness.session.failed", payload: { sessionId: "p1", role: "planner", ...failure } },
        {
          type: "OuterLoopCycleCompleted",
          payload: { cycleNumber: 1, status: "failed", output: null, decision: "replan", summary: "Cycle 1 failed", failure },
        },
        { type: "RunStarted", payload: { versionId: "wfver_2", lockHash: digest, cycle: 2 } },
      ]),
    );
    expect(
      entries.filter((e) => e.kind === "compile" || e.kind === "run").map((e) => [e.label, durationOf(e), e.outcome, e.detail]),
    ).toEqual([
      ["run of wf", null, "running", null],
      ["compile", 500, "failed", "planner_validation_exhausted: no valid LWIR after 4 submissions"],
      ["cycle 1 failed: replan", 0, "failed", "Cycle 1 failed"],
      ["compile cycle 2", 100, "ok", null],
      ["cycle 2 started", 0, "info", null],
    ]);
  });
});

/** A worker session that makes `turns` model calls: a long log, as a chatty live run writes. */
function longRun(turns: number): RunEvent[] {
  const calls = Array.from({ length: turns }, (_, i): NewRunEvent[] => [
    {
      type: "harness.model.called",
      payload: {
        sessionId: "w1",
        callId: `c${i}`,
        turn: i + 1,
        requestHash: `sha256:${"b".repeat(64)}`,
        modelSlotId: "m",
        providerId: "p",
        modelId: "x",
      },
    },
    {
      type: "harness.model.responded",
      payload: {
        sessionId: "w1",
        callId: `c${i}`,
        response: {},
        usage: usage(1, 1),
        model: { providerId: "p", modelId: "x", offline: true },
      },
    },
  ]);
  return logOf([...completedRun.slice(0, 10), ...calls.flat(), ...completedRun.slice(12)]);
}

/** `events`, each counting how often its `type` is read (every fold step reads it). */
function counted(events: readonly RunEvent[]): { events: RunEvent[]; reads: number[] } {
  const reads = events.map(() => 0);
  const wrapped = events.map((event, i) => {
    const copy = { ...event };
    Object.defineProperty(copy, "type", {
      enumerable: true,
      get: () => {
        reads[i] = (reads[i] ?? 0) + 1;
        return event.type;
      },
    });
    return copy as RunEvent;
  });
  return { events: wrapped, reads };
}

/** The live page: each event arrives, then the page renders the timeline; the reads of the first event. */
function followLive(
  events: readonly RunEvent[],
  render: (seen: readonly RunEvent[], builder: TimelineBuilder) => readonly TimelineEntry[],
) {
  const live = counted(events);
  const builder = new TimelineBuilder();
  let entries: readonly TimelineEntry[] = [];
  live.events.forEach((event, i) => {
    builder.add(event);
    entries = render(live.events.slice(0, i + 1), builder);
  });
  return { firstReads: live.reads[0] ?? 0, maxReads: Math.max(...live.reads), totalReads: live.reads.reduce((a, b) => a + b, 0), entries };
}

describe("TimelineBuilder, for a page that follows a live run", () => {
  it("has, after each event, the entries timelineOf builds from the events so far", () => {
    const log = logOf([
      ...completedRun.slice(0, 9),
      {
        type: "StepRetried",
        payload: { stepPath: "c1/a", attempt: 1, retryAt: 2_500, error: { name: "E", message: "flaky", retriable: true } },
      },
      { type: "StepStarted", payload: { stepPath: "c1/a", attempt: 2 } },
      ...completedRun.slice(9, 13),
      { type: "StepSucceeded", payload: { stepPath: "c1/a", attempt: 2, output: { text: "A" } } },
      ...completedRun.slice(14),
    ]);
    const builder = new TimelineBuilder();
    for (const [i, event] of log.entries()) {
      builder.add(event);
      expect(builder.entries, `after seq ${event.seq}`).toEqual(timelineOf(log.slice(0, i + 1)));
    }
    expect(builder.entries.at(-1)).toMatchObject({ label: "run completed", outcome: "ok" });
  });

  it("folds each event once however long the run grows (rebuilding on every render would read it once per render)", () => {
    const incremental = (_seen: readonly RunEvent[], builder: TimelineBuilder) => builder.entries;
    const short = followLive(longRun(20), incremental);
    const long = followLive(longRun(400), incremental);
    // An event is read as often in a run of 816 events as in one of 56: the work per event is constant.
    expect(long.firstReads).toBe(short.firstReads);
    expect(long.maxReads).toBe(short.maxReads);
    expect(long.totalReads).toBeLessThanOrEqual(short.maxReads * longRun(400).length);
    expect(long.entries).toEqual(timelineOf(longRun(400)));
    // What the page did before: folding the whole log on every render reads the first event once per render.
    const refold = followLive(longRun(20), (seen) => timelineOf(seen));
    expect(refold.firstReads).toBeGreaterThanOrEqual(longRun(20).length);
  });
});
