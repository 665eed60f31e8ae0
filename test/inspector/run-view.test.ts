import { describe, expect, it } from "vitest";
import { applyRunEvent, emptyRunView, reduceRunEvents } from "../../src/inspector/run-view.ts";
import type { NewRunEvent } from "../../src/ports/run-events.ts";
import { completedRun, logOf } from "./events.ts";

const error = (message: string) => ({ name: "CodeRunError", code: "code_threw", message, retriable: true });

describe("reduceRunEvents", () => {
  it("follows a completed run: statuses, output, version, usage, and calls filed under their step or the planner", () => {
    const view = reduceRunEvents(logOf(completedRun));
    expect(view).toMatchObject({
      status: "completed",
      workflowId: "wf",
      versionId: "wfver_1",
      output: { done: true },
      lastSeq: completedRun.length,
    });
    expect(view.usage).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42, costUsd: null });
    expect(view.steps.a).toMatchObject({ status: "succeeded", output: { text: "A" } });
    expect(view.steps.b?.status).toBe("succeeded");
    expect(view.steps.a?.modelCalls).toEqual([
      expect.objectContaining({
        callId: "m2",
        status: "succeeded",
        modelSlotId: "gpt-4o-mini",
        usage: expect.objectContaining({ totalTokens: 27 }),
        offline: true,
      }),
    ]);
    expect(view.steps.a?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: "succeeded", startedAt: 1_800, endedAt: 2_300 }),
    ]);
    expect(view.planner.modelCalls.map((c) => c.callId)).toEqual(["m1"]);
    expect(view.planner.sessions[0]).toMatchObject({ role: "planner", status: "succeeded" });
  });

  it("moves a step's status event by event, as the live page sees it", () => {
    const events = logOf(completedRun);
    const view = emptyRunView();
    const seen: string[] = [];
    for (const event of events) {
      applyRunEvent(view, event);
      const status = view.steps.a?.status ?? "absent";
      if (seen.at(-1) !== status) seen.push(status);
    }
    expect(seen).toEqual(["absent", "scheduled", "running", "succeeded"]);
    expect(reduceRunEvents(events.slice(0, 3)).status).toBe("compiling");
    expect(reduceRunEvents(events.slice(0, 7)).status).toBe("running");
  });

  it("ignores events it has already applied (a resumed stream may repeat some)", () => {
    const events = logOf(completedRun);
    const view = reduceRunEvents(events);
    const before = JSON.stringify(view);
    reduceRunEvents(events.slice(5), view);
    expect(JSON.stringify(view)).toBe(before);
  });

  it("records retries as attempts and a failed step's error; steps still in flight stop when the run fails", () => {
    const events = logOf([
      ...completedRun.slice(0, 7),
      { type: "StepStarted", payload: { stepPath: "c1/a", attempt: 1 } },
      { type: "StepStarted", payload: { stepPath: "c1/other", attempt: 1 } },
      { type: "StepRetried", payload: { stepPath: "c1/a", attempt: 1, retryAt: 5_000, error: error("flaky") } },
      { type: "StepStarted", payload: { stepPath: "c1/a", attempt: 2 } },
      { type: "StepFailed", payload: { stepPath: "c1/a", attempt: 2, error: error("boom") } },
      { type: "RunFailed", payload: { causeCode: "step_failed", message: "Step c1/a failed after 2 attempts: boom" } },
    ]);
    const partial = reduceRunEvents(events.slice(0, 10));
    expect(partial.steps.a?.status).toBe("retrying");
    const view = reduceRunEvents(events);
    expect(view.status).toBe("failed");
    expect(view.failure).toEqual({ causeCode: "step_failed", message: "Step c1/a failed after 2 attempts: boom" });
    expect(view.steps.a).toMatchObject({ status: "failed", error: { message: "boom" } });
    expect(view.steps.a?.attempts.map((a) => [a.attempt, a.outcome, a.error?.message ?? null])).toEqual([
      [1, "retried", "flaky"],
      [2, "failed", "boom"],
    ]);
    expect(view.steps.other?.status).toBe("stopped");
    // Usage of a run that never completed is the sum of its responded calls.
    expect(view.usage.totalTokens).toBe(15);
  });

  it("groups fan-out branches under their step and files a fixer session's calls under the step", () => {
    const digest = `sha256:${"b".repeat(64)}` as const;
    const events: NewRunEvent[] = [
      ...completedRun.slice(0, 7),
      { type: "StepStarted", payload: { stepPath: "c1/fan", attempt: 1 } },
      { type: "StepStarted", payload: { stepPath: "c1/fan[0]", attempt: 1 } },
      { type: "StepStarted", payload: { stepPath: "c1/fan[1]", attempt: 1 } },
      { type: "StepSucceeded", payload: { stepPath: "c1/fan[1]", attempt: 1, output: 1 } },
      {
        type: "harness.session.started",
        payload: { sessionId: "f1", role: "fixer", kind: "fix_step", manifestHash: digest, manifest: {}, stepPath: "c1/fan[0]" },
      },
      {
        type: "harness.tool_call.started",
        payload: { sessionId: "f1", callId: "t1", caller: "model", tool: "bash", args: { script: "ls" }, idempotencyKey: "k" },
      },
      { type: "harness.tool_call.succeeded", payload: { sessionId: "f1", callId: "t1", tool: "bash", result: { stdout: "a.ts" } } },
      { type: "harness.session.completed", payload: { sessionId: "f1", role: "fixer", output: {} } },
    ];
    const view = reduceRunEvents(logOf(events));
    const fan = view.steps.fan;
    expect(fan?.status).toBe("running");
    expect(fan?.branches.map((b) => [b.key, b.status])).toEqual([
      ["0", "running"],
      ["1", "succeeded"],
    ]);
    expect(fan?.sessions.map((s) => [s.role, s.status])).toEqual([["fixer", "succeeded"]]);
    expect(fan?.toolCalls).toEqual([expect.objectContaining({ tool: "bash", status: "succeeded", result: { stdout: "a.ts" } })]);
    // Only the step's own path carries the step's output.
    expect(fan?.output).toBeUndefined();
  });

  it("starts a loop's later visit over, and a replanned cycle's steps over", () => {
    const loop = reduceRunEvents(
      logOf([
        ...completedRun.slice(0, 7),
        { type: "StepStarted", payload: { stepPath: "c1/draft", attempt: 1 } },
        { type: "StepSucceeded", payload: { stepPath: "c1/draft", attempt: 1, output: "v1" } },
        { type: "StepScheduled", payload: { stepPath: "c1/draft@2" } },
      ]),
    );
    expect(loop.steps.draft).toMatchObject({ visits: 2, status: "scheduled" });

    const digest = `sha256:${"c".repeat(64)}` as const;
    const replanned = reduceRunEvents(
      logOf([
        ...completedRun.slice(0, 17),
        { type: "OuterLoopCycleCompleted", payload: { cycleNumber: 1, status: "completed", output: {}, decision: "replan" } },
        {
          type: "WorkflowVersionRegistered",
          payload: { versionId: "wfver_2", versionHash: digest, lockHash: digest, definitionHash: digest, warnings: [] },
        },
        { type: "RunStarted", payload: { versionId: "wfver_2", lockHash: digest, cycle: 2 } },
        { type: "StepStarted", payload: { stepPath: "c2/x", attempt: 1 } },
      ]),
    );
    expect(replanned).toMatchObject({ cycle: 2, versionId: "wfver_2" });
    expect(Object.keys(replanned.steps)).toEqual(["x"]);
  });

  it("follows a section's occurrences: each one's steps start over, and the run waits between them", () => {
    const events: NewRunEvent[] = [
      ...completedRun.slice(0, 7),
      { type: "OccurrenceStarted", payload: { occurrenceId: "o1" } },
      { type: "StepStarted", payload: { stepPath: "o1/c1/a", attempt: 1 } },
      { type: "StepSucceeded", payload: { stepPath: "o1/c1/a", attempt: 1, output: "first" } },
      { type: "OccurrenceCompleted", payload: { occurrenceId: "o1", output: "first" } },
      { type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: {}, trigger: { kind: "http" } } },
    ];
    const waiting = reduceRunEvents(logOf(events.slice(0, -1)));
    expect(waiting.status).toBe("waiting");
    // A queued occurrence is work pending again: the run is running, as the engine's fold says.
    const queued = reduceRunEvents(logOf(events));
    expect(queued.status).toBe("running");
    expect(queued.steps.a).toMatchObject({ status: "succeeded", output: "first" });
    expect(queued.occurrences.map((o) => [o.id, o.status])).toEqual([
      ["o1", "completed"],
      ["o2", "queued"],
    ]);

    const second = reduceRunEvents(
      logOf([
        ...events,
        { type: "OccurrenceStarted", payload: { occurrenceId: "o2" } },
        { type: "StepStarted", payload: { stepPath: "o2/c1/a", attempt: 1 } },
        { type: "StepSucceeded", payload: { stepPath: "o1/c1/b", attempt: 1, output: "stale" } },
        { type: "OccurrenceFailed", payload: { occurrenceId: "o2", causeCode: "step_failed", message: "boom", rearmed: true } },
      ]),
    );
    expect(second).toMatchObject({ occurrence: "o2", status: "waiting" });
    // Only o2's steps: o1's late event does not colour the DAG.
    expect(Object.keys(second.steps)).toEqual(["a"]);
    expect(second.steps.a?.status).toBe("running");
    expect(second.occurrences[1]).toMatchObject({ status: "failed", failure: { causeCode: "step_failed", message: "boom" } });
  });

  it("shows a step waiting for an approval, and going on once it is decided", () => {
    const digest = `sha256:${"e".repeat(64)}` as const;
    const events: NewRunEvent[] = [
      ...completedRun.slice(0, 7),
      { type: "StepStarted", payload: { stepPath: "c1/refund", attempt: 1 } },
      {
        type: "ApprovalRequested",
        payload: {
          approvalId: "ap1",
          stepPath: "c1/refund",
          tool: "payments.refund",
          args: { amount: 5 },
          argsHash: digest,
          expiresAt: 9_999,
        },
      },
    ];
    const waiting = reduceRunEvents(logOf(events));
    expect(waiting.steps.refund?.status).toBe("waiting");
    expect(waiting.steps.refund?.approvals).toEqual([
      expect.objectContaining({ approvalId: "ap1", tool: "payments.refund", decision: null }),
    ]);
    const decided = reduceRunEvents(
      logOf([
        ...events,
        { type: "ApprovalDecided", payload: { approvalId: "ap1", decision: "denied", argsHash: digest, reason: "too much" } },
      ]),
    );
    expect(decided.steps.refund?.status).toBe("running");
    expect(decided.steps.refund?.approvals[0]).toMatchObject({ decision: "denied", reason: "too much", decidedAt: 1_900 });
  });

  it("marks the run cancelled with its reason, and only advances lastSeq for event types it does not know", () => {
    const view = reduceRunEvents(logOf([...completedRun.slice(0, 9), { type: "RunCancelled", payload: { reason: "by user" } }]));
    expect(view).toMatchObject({ status: "cancelled", cancelReason: "by user" });
    expect(view.steps.a?.status).toBe("stopped");
    const unknown = { seq: 99, runId: "r", at: 1, type: "SectionOpened", payload: {} } as unknown as Parameters<typeof applyRunEvent>[1];
    applyRunEvent(view, unknown);
    expect(view.lastSeq).toBe(99);
    expect(view.status).toBe("cancelled");
  });
});
