import { z } from "zod";
import {
  AwaitedSignalSchema,
  ChildOutcomeSchemas,
  DigestSchema,
  FlowGateKindSchema,
  RecordedErrorSchema,
  RunPlacementSchema,
} from "./common-schemas.ts";

const childRun = { stepPath: z.string(), attempt: z.number(), childRunId: z.string() };

/** Payloads of steps and what they wait for: attempts, approvals, waits, signals, child runs, flow control, model limits. */
export const STEP_PAYLOADS = {
  StepScheduled: z.object({ stepPath: z.string() }),
  StepStarted: z.object({ stepPath: z.string(), attempt: z.number(), deadline: z.number().optional() }),
  /** `reused`: the output is the source run's (a restart or fork, docs/runs.md): nothing was called; `seq` is its StepSucceeded there. */
  StepSucceeded: z.object({
    stepPath: z.string(),
    attempt: z.number(),
    output: z.unknown(),
    reused: z.object({ runId: z.string(), seq: z.number() }).optional(),
  }),
  StepFailed: z.object({ stepPath: z.string(), attempt: z.number(), error: RecordedErrorSchema }),
  StepRetried: z.object({ stepPath: z.string(), attempt: z.number(), retryAt: z.number(), error: RecordedErrorSchema }),
  StepSkipped: z.object({ stepPath: z.string(), reason: z.string() }),
  /** A tool call that needs approval waits for a decision bound to the hash of its arguments. */
  ApprovalRequested: z.object({
    approvalId: z.string(),
    stepPath: z.string(),
    tool: z.string(),
    args: z.unknown(),
    argsHash: DigestSchema,
    expiresAt: z.number(),
  }),
  ApprovalDecided: z.object({
    approvalId: z.string(),
    decision: z.enum(["approved", "denied"]),
    argsHash: DigestSchema,
    reason: z.string().optional(),
  }),
  /**
   * A wait step (`wait.sleep`, `wait.signal`) began waiting: its deadline (epoch ms, the run
   * object's alarm) and, for a signal wait, the signals it takes with their payload schemas.
   */
  WaitStarted: z.object({
    stepPath: z.string(),
    attempt: z.number(),
    kind: z.enum(["sleep", "signal"]),
    until: z.number(),
    signals: z.array(AwaitedSignalSchema).optional(),
  }),
  /** A signal sent to the run, validated and durable before its sender was answered; `signalId` makes a resend idempotent. */
  SignalReceived: z.object({ signalId: z.string(), name: z.string(), payload: z.unknown() }),
  /** A wait.signal step took a received signal (first in, first out among those it names). */
  SignalConsumed: z.object({ signalId: z.string(), stepPath: z.string() }),
  /**
   * A `workflow.run` step is about to start its child: appended before the start, so a resumed
   * parent starts the same child id (derived from run id, step path and attempt) and never a second one.
   */
  ChildRunStarted: z.object({
    ...childRun,
    workflowId: z.string(),
    placement: RunPlacementSchema.optional(),
    /**
     * The step's output schema (`null`: it declares none), so the child's end can be checked and
     * answered where it lands, in the parent's `childEnded`; absent in logs from before it was recorded.
     */
    outputSchema: z.union([z.record(z.string(), z.unknown()), z.boolean(), z.null()]).optional(),
  }),
  /** The child ended (its run object told this one, or a resumed step asked it): the step's outcome. */
  ChildRunEnded: z.union([ChildOutcomeSchemas[0].extend(childRun), ChildOutcomeSchemas[1].extend(childRun)]),
  /**
   * The run waits in its key's queue for this gate (`waitReason` `concurrency` or `throttle`); `position` as of this event.
   * `scope` `tenant`: the gate is one of the tenant's start quotas (FlowGate.scope), not the workflow's flow control.
   */
  FlowQueued: z.object({
    kind: FlowGateKindSchema,
    gate: z.number(),
    key: z.string(),
    position: z.number(),
    scope: z.literal("tenant").optional(),
  }),
  /** The gate admitted the run: it holds a slot of its key (concurrency) or took a start of the window (throttle) since `admittedAt` (the limiter's clock). */
  FlowAdmitted: z.object({
    kind: FlowGateKindSchema,
    gate: z.number(),
    key: z.string(),
    admittedAt: z.number(),
    scope: z.literal("tenant").optional(),
  }),
  /**
   * A step's model call waits for its model's shared limit (docs/flow-control.md, "Model limits"):
   * the limiter said no until `until` (its clock), over a limit or paused by a provider's
   * Retry-After (`waitReason` `rate_limit`). Logged once per wait, before it.
   */
  ModelRateLimited: z.object({ stepPath: z.string(), providerId: z.string(), modelId: z.string(), until: z.number() }),
  /** The limiter let the call go: the step runs again (closes the step's ModelRateLimited). */
  ModelRateLimitLifted: z.object({ stepPath: z.string(), providerId: z.string(), modelId: z.string() }),
};
