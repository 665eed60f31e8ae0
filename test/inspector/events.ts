import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";

/** Numbers events 1..n, 100 ms apart from t=1000, as a log would. */
export function logOf(events: readonly NewRunEvent[], runId = "run_test"): RunEvent[] {
  return events.map((e, i) => ({ ...e, seq: i + 1, runId, at: 1_000 + i * 100 }) as RunEvent);
}

export const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  costUsd: null,
});
const digest = `sha256:${"a".repeat(64)}` as const;

/** A run that compiled to two steps, a → b, and completed. */
export const completedRun: NewRunEvent[] = [
  { type: "RunRequested", payload: { workflowId: "wf", input: { q: 1 }, trigger: { kind: "http" }, tenant: "dev" } },
  { type: "harness.session.started", payload: { sessionId: "p1", role: "planner", kind: "plan", manifestHash: digest, manifest: {} } },
  {
    type: "harness.model.called",
    payload: { sessionId: "p1", callId: "m1", turn: 1, requestHash: digest, modelSlotId: "gpt-5", providerId: "offline", modelId: "x" },
  },
  {
    type: "harness.model.responded",
    payload: {
      sessionId: "p1",
      callId: "m1",
      response: {},
      usage: usage(10, 5),
      model: { providerId: "offline", modelId: "x", offline: true },
    },
  },
  { type: "harness.session.completed", payload: { sessionId: "p1", role: "planner", output: {} } },
  {
    type: "WorkflowVersionRegistered",
    payload: { versionId: "wfver_1", versionHash: digest, lockHash: digest, definitionHash: digest, warnings: [] },
  },
  { type: "RunStarted", payload: { versionId: "wfver_1", lockHash: digest, cycle: 1 } },
  { type: "StepScheduled", payload: { stepPath: "c1/a" } },
  { type: "StepStarted", payload: { stepPath: "c1/a", attempt: 1 } },
  {
    type: "harness.session.started",
    payload: { sessionId: "w1", role: "worker", kind: "execute_step", manifestHash: digest, manifest: {}, stepPath: "c1/a" },
  },
  {
    type: "harness.model.called",
    payload: {
      sessionId: "w1",
      callId: "m2",
      turn: 1,
      requestHash: digest,
      modelSlotId: "gpt-4o-mini",
      providerId: "offline",
      modelId: "y",
    },
  },
  {
    type: "harness.model.responded",
    payload: {
      sessionId: "w1",
      callId: "m2",
      response: {},
      usage: usage(20, 7),
      model: { providerId: "offline", modelId: "y", offline: true },
    },
  },
  { type: "harness.session.completed", payload: { sessionId: "w1", role: "worker", output: { text: "A" } } },
  { type: "StepSucceeded", payload: { stepPath: "c1/a", attempt: 1, output: { text: "A" } } },
  { type: "StepScheduled", payload: { stepPath: "c1/b" } },
  { type: "StepStarted", payload: { stepPath: "c1/b", attempt: 1 } },
  { type: "StepSucceeded", payload: { stepPath: "c1/b", attempt: 1, output: { done: true } } },
  { type: "RunCompleted", payload: { output: { done: true }, usage: usage(30, 12), versionId: "wfver_1" } },
];
