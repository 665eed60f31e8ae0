import { z } from "zod";
import { RunCauseCodeSchema } from "./cause-codes.ts";
import {
  CycleFailureSchema,
  DigestSchema,
  FlowGateSchema,
  LwirValidatorIdSchema,
  ModelOverridesSchema,
  ParentRefSchema,
  RunMemoSchema,
  RunPlacementSchema,
  RunTriggerSchema,
  SchemaNormalizerIdSchema,
  TokenUsageSchema,
} from "./common-schemas.ts";

/** The run's request: everything a start decided, recorded once as the log's first event. */
export const RunRequestedPayloadSchema = z.object({
  workflowId: z.string(),
  input: z.unknown(),
  trigger: RunTriggerSchema,
  tenant: z.string(),
  placement: RunPlacementSchema.optional(),
  lwir: z.unknown().optional(),
  /** The approved definition hash the start was checked against (workflows with `requireApproval`). */
  approvedDefinitionHash: DigestSchema.optional(),
  /**
   * Which approval of that hash (its `approvedAt`): a revocation followed by a re-approval of the
   * same hash is another approval, and a run started under the first fails closed. Absent in logs
   * from before it (those match by hash alone).
   */
  approvedAt: z.number().optional(),
  /** The version pinned for the approved definition (its display id): the run executes it with no planner. */
  pinnedVersionId: z.string().optional(),
  /** The pinned version's full hash: what the run looks up and executes (absent in logs from before it). */
  pinnedVersionHash: DigestSchema.optional(),
  /** The schema normalizer the run keeps for life; absent in logs from before it: `little-workflow-schema@1` (docs/identity.md). */
  schemaNormalizer: SchemaNormalizerIdSchema.optional(),
  /** The LWIR validator the run keeps for life; absent in logs from before it: `little-workflow-lwir-validator@1` (docs/identity.md). */
  lwirValidator: LwirValidatorIdSchema.optional(),
  /** Present on a child run (a parent's `workflow.run` step started it): where its end is reported. */
  parent: ParentRefSchema.optional(),
  /** The flow-control gates the run passes before it is driven, in order (docs/flow-control.md); absent when the workflow has none. */
  flow: z.array(FlowGateSchema).optional(),
  /** The caller's W3C `traceparent` (normalized), when the start carried one: the run's trace is a child of that span (docs/observability.md). */
  traceparent: z.string().optional(),
  /** A restart or a fork: the run whose recorded step results it reuses (docs/runs.md). */
  memo: RunMemoSchema.optional(),
  /** A fork's model changes (`models: { slot: "provider:model" }`), over the deployment's: part of this run's definition hash. */
  modelOverrides: ModelOverridesSchema.optional(),
  /** The start's tags (`key` → `value`, at most 16): in the run index for `GET /v1/runs?tag=key:value`. */
  tags: z.record(z.string(), z.string()).optional(),
});

/** Payloads of the run's life: its request, version, cycles, end, pauses and occurrences. */
export const RUN_PAYLOADS = {
  RunRequested: RunRequestedPayloadSchema,
  WorkflowVersionRegistered: z.object({
    versionId: z.string(),
    versionHash: DigestSchema,
    lockHash: DigestSchema,
    definitionHash: DigestSchema,
    warnings: z.array(z.unknown()),
  }),
  /** `steps`: how many steps the version's LWIR has (the run's progress); absent in logs from before it was recorded. */
  RunStarted: z.object({ versionId: z.string(), lockHash: DigestSchema, cycle: z.number(), steps: z.number().optional() }),
  OuterLoopCycleCompleted: z.object({
    cycleNumber: z.number(),
    status: z.enum(["completed", "failed"]),
    output: z.unknown(),
    summary: z.string().optional(),
    decision: z.enum(["accept", "replan"]),
    /** Why a `failed` cycle failed: what the next cycle's planner is told (docs/runs.md, the outer loop). */
    failure: CycleFailureSchema.optional(),
  }),
  /** A trigger addressed to a section run: its payload is the occurrence's input. */
  OccurrenceQueued: z.object({ occurrenceId: z.string(), input: z.unknown(), trigger: RunTriggerSchema }),
  OccurrenceStarted: z.object({ occurrenceId: z.string() }),
  OccurrenceCompleted: z.object({ occurrenceId: z.string(), output: z.unknown() }),
  /** `rearmed`: the section's `onBodyFailure` is "continue", so the run waits for the next trigger. */
  OccurrenceFailed: z.object({ occurrenceId: z.string(), causeCode: RunCauseCodeSchema, message: z.string(), rearmed: z.boolean() }),
  RunCompleted: z.object({ output: z.unknown(), usage: TokenUsageSchema, versionId: z.string() }),
  RunFailed: z.object({ causeCode: RunCauseCodeSchema, message: z.string(), details: z.unknown().optional() }),
  RunCancelled: z.object({ reason: z.string() }),
  /** An operator paused the run: no new step, model call or occurrence starts until `RunResumed` (docs/runs.md, "Pause and resume"). `by` names who (the token, or the RPC caller). */
  RunPaused: z.object({ by: z.string() }),
  /** The run goes on after a `RunPaused`. */
  RunResumed: z.object({ by: z.string() }),
};
