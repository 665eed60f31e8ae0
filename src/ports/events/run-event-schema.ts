import type { z } from "zod";
import { HARNESS_PAYLOADS } from "./harness-payloads.ts";
import { RUN_PAYLOADS } from "./run-payloads.ts";
import { STEP_PAYLOADS } from "./step-payloads.ts";

/**
 * The run event log's one schema: a payload schema per event type (the event names are listed in
 * docs/runs.md). The TypeScript types of ports/run-events.ts are inferred from it, the API's
 * OpenAPI document describes events with it (src/api/schemas.ts, `RunEvent`), and the event logs check every stored row they read
 * against it (decode-stored-event.ts). Listed in the order the types were introduced.
 */
export const RUN_EVENT_PAYLOAD_SCHEMAS = {
  RunRequested: RUN_PAYLOADS.RunRequested,
  ...HARNESS_PAYLOADS,
  WorkflowVersionRegistered: RUN_PAYLOADS.WorkflowVersionRegistered,
  RunStarted: RUN_PAYLOADS.RunStarted,
  StepScheduled: STEP_PAYLOADS.StepScheduled,
  StepStarted: STEP_PAYLOADS.StepStarted,
  StepSucceeded: STEP_PAYLOADS.StepSucceeded,
  StepFailed: STEP_PAYLOADS.StepFailed,
  StepRetried: STEP_PAYLOADS.StepRetried,
  StepSkipped: STEP_PAYLOADS.StepSkipped,
  OuterLoopCycleCompleted: RUN_PAYLOADS.OuterLoopCycleCompleted,
  ApprovalRequested: STEP_PAYLOADS.ApprovalRequested,
  ApprovalDecided: STEP_PAYLOADS.ApprovalDecided,
  OccurrenceQueued: RUN_PAYLOADS.OccurrenceQueued,
  OccurrenceStarted: RUN_PAYLOADS.OccurrenceStarted,
  OccurrenceCompleted: RUN_PAYLOADS.OccurrenceCompleted,
  OccurrenceFailed: RUN_PAYLOADS.OccurrenceFailed,
  RunCompleted: RUN_PAYLOADS.RunCompleted,
  RunFailed: RUN_PAYLOADS.RunFailed,
  RunCancelled: RUN_PAYLOADS.RunCancelled,
  RunPaused: RUN_PAYLOADS.RunPaused,
  RunResumed: RUN_PAYLOADS.RunResumed,
  WaitStarted: STEP_PAYLOADS.WaitStarted,
  SignalReceived: STEP_PAYLOADS.SignalReceived,
  SignalConsumed: STEP_PAYLOADS.SignalConsumed,
  ChildRunStarted: STEP_PAYLOADS.ChildRunStarted,
  ChildRunEnded: STEP_PAYLOADS.ChildRunEnded,
  FlowQueued: STEP_PAYLOADS.FlowQueued,
  FlowAdmitted: STEP_PAYLOADS.FlowAdmitted,
  ModelRateLimited: STEP_PAYLOADS.ModelRateLimited,
  ModelRateLimitLifted: STEP_PAYLOADS.ModelRateLimitLifted,
};

type PayloadSchemas = typeof RUN_EVENT_PAYLOAD_SCHEMAS;

/** Each event type's payload, as inferred from its schema. */
export type RunEventPayloadsOf = { [K in keyof PayloadSchemas]: z.infer<PayloadSchemas[K]> };
