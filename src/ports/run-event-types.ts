import type { RunEventType } from "./run-events.ts";

/**
 * Every event type of the union in run-events.ts, at run time (for validating `?type=` filters).
 * A record keyed by the union, so adding an event type without listing it here, or listing one
 * that does not exist, is a compile error.
 */
const LISTED: Readonly<Record<RunEventType, true>> = {
  RunRequested: true,
  "harness.session.started": true,
  "harness.session.completed": true,
  "harness.session.failed": true,
  "harness.model.called": true,
  "harness.model.responded": true,
  "harness.model.failed": true,
  "harness.tool_call.started": true,
  "harness.tool_call.succeeded": true,
  "harness.tool_call.failed": true,
  WorkflowVersionRegistered: true,
  RunStarted: true,
  StepScheduled: true,
  StepStarted: true,
  StepSucceeded: true,
  StepFailed: true,
  StepRetried: true,
  StepSkipped: true,
  OuterLoopCycleCompleted: true,
  ApprovalRequested: true,
  ApprovalDecided: true,
  OccurrenceQueued: true,
  OccurrenceStarted: true,
  OccurrenceCompleted: true,
  OccurrenceFailed: true,
  RunCompleted: true,
  RunFailed: true,
  RunCancelled: true,
  RunPaused: true,
  RunResumed: true,
  WaitStarted: true,
  SignalReceived: true,
  SignalConsumed: true,
  ChildRunStarted: true,
  ChildRunEnded: true,
  FlowQueued: true,
  FlowAdmitted: true,
  ModelRateLimited: true,
  ModelRateLimitLifted: true,
};

export const RUN_EVENT_TYPES: readonly RunEventType[] = Object.keys(LISTED) as RunEventType[];
