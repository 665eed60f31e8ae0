import { z } from "zod";
import type { LwirValidatorId } from "../../identity/lwir-validator-id.ts";
import type { ModelOverrides } from "../../identity/model-overrides.ts";
import type { SchemaNormalizerId } from "../../schema/normalize-schema.ts";
import { RunCauseCodeSchema } from "./cause-codes.ts";

/**
 * The pieces event payloads share. Objects are zod's default (not strict): a field a newer version
 * adds does not make an older reader's row corrupt; a missing required field or a wrong type does.
 */

/** A `sha256:` digest (json/digest.ts); the read check wants the prefix, not the 64 hex digits. */
export const DigestSchema = z.templateLiteral(["sha256:", z.string()]);

/** Ids a run keeps for life; the lists mirror their types in schema/ and identity/ (checked below). */
export const SchemaNormalizerIdSchema = z.enum(["little-workflow-schema@1", "little-workflow-schema@2"]);
export const LwirValidatorIdSchema = z.enum([
  "little-workflow-lwir-validator@1",
  "little-workflow-lwir-validator@2",
  "little-workflow-lwir-validator@3",
]);

/** A fork's model changes by slot key (identity/model-overrides.ts). */
export const ModelOverridesSchema = z.record(
  z.string(),
  z.union([
    z.object({ provider: z.string(), providerId: z.string(), modelId: z.string() }),
    z.object({ variable: z.string(), invalid: z.string() }),
  ]),
);

/** Where a run object lives; needed to address it again (a jurisdiction is its own namespace). */
export const RunPlacementSchema = z.object({ jurisdiction: z.string().optional(), locationHint: z.string().optional() });

/** What started a run; `id` is the trigger's own key (idempotency key, webhook id, cron tick, queue message id). */
export const RunTriggerSchema = z.object({
  kind: z.enum(["http", "webhook", "programmatic", "lwir", "cron", "queue", "child", "restart", "fork"]),
  id: z.string().optional(),
});

/**
 * The run a child run was started by (a `workflow.run` step): where to tell it the child ended,
 * and how deep the call chain is (a root run is depth 0; its children 1).
 */
export const ParentRefSchema = z.object({
  runId: z.string(),
  stepPath: z.string(),
  attempt: z.number(),
  tenant: z.string(),
  placement: RunPlacementSchema.optional(),
  depth: z.number(),
});

/**
 * A restart's or a fork's source (docs/runs.md, "Restart and forks"): the ended run whose recorded
 * step results this run reuses where a step's content key matches, read from that run's own log.
 * `rerun` (a restart's `fromStep` and everything downstream of it) runs afresh whatever its key.
 */
export const RunMemoSchema = z.object({
  relation: z.enum(["restart", "fork"]),
  sourceRunId: z.string(),
  placement: RunPlacementSchema.optional(),
  fromStep: z.string().optional(),
  rerun: z.array(z.string()).readonly().optional(),
});

/** How a child run ended, as its parent records it (`ChildRunEnded`). */
export const ChildOutcomeSchemas = [
  z.object({ status: z.literal("completed"), output: z.unknown() }),
  z.object({ status: z.enum(["failed", "cancelled"]), cause: z.object({ code: z.string(), message: z.string() }) }),
] as const;

/** Roles of harness sessions and the task kinds they run. */
export const HarnessRoleSchema = z.enum(["planner", "worker", "fixer"]);
export const HarnessTaskKindSchema = z.enum(["plan", "execute_step", "fix_step"]);

/** A structured failure, as recorded. */
export const RecordedErrorSchema = z.object({ name: z.string(), code: z.string().optional(), message: z.string(), retriable: z.boolean() });

/** A step that succeeded in a failed cycle: its output (redacted), or a preview when it is large. */
export const SucceededStepSchema = z.object({
  stepId: z.string(),
  stepPath: z.string(),
  output: z.unknown().optional(),
  /** The first characters of the output's JSON, when the whole is over the cap. */
  outputPreview: z.string().optional(),
});

/**
 * Why an outer-loop cycle failed, as recorded and as the next planner sees it. Redacted like every
 * payload; `details` is the failure's own (tagged JSON: findings, the step's error code).
 */
export const CycleFailureSchema = z.object({
  causeCode: RunCauseCodeSchema,
  message: z.string(),
  /** The step that failed, for `step_failed`: its LWIR id and its path in this run. */
  stepId: z.string().optional(),
  stepPath: z.string().optional(),
  details: z.unknown().optional(),
  /**
   * Steps of the failed cycle that succeeded before it failed (their effects, a tool's included,
   * already happened; the next cycle's idempotency keys differ). Present only when there were any.
   */
  succeededSteps: z.array(SucceededStepSchema).readonly().optional(),
  /** How many more steps succeeded than `succeededSteps` lists (it is capped); absent when none were left out. */
  succeededStepsOmitted: z.number().optional(),
});

/** Token usage, summed per call and per run. */
export const TokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  /** USD, from the slot's declared pricing; null when any call's model is unpriced (or offline). */
  costUsd: z.number().nullable(),
});

/** Which limit a flow-control gate enforces. */
export const FlowGateKindSchema = z.enum(["concurrency", "throttle"]);

/**
 * One gate of a run, as its start computed it and `RunRequested.flow` records it: the key is the
 * definition's key template rendered over the input (`"*"` when the limit has no key).
 */
export const FlowGateSchema = z.object({
  kind: FlowGateKindSchema,
  /** The gate's place in the definition: `concurrency[index]`, or 0 for the throttle. */
  index: z.number(),
  key: z.string(),
  limit: z.number(),
  /** A throttle's window. */
  periodMs: z.number().optional(),
  /**
   * `tenant`: one of the tenant's start quotas (`LITTLE_QUOTA_CONCURRENT_RUNS`,
   * `LITTLE_QUOTA_STARTS_PER_MINUTE`), shared by every workflow of the tenant and passed after the
   * run's own gates, from its alarm (after the start's ack: src/engine/runs/tenant-gates.ts).
   * Absent: a gate of the workflow's own flow control.
   */
  scope: z.literal("tenant").optional(),
});

/** A signal a wait takes, as its WaitStarted records it (what a form for it is generated from). */
export const AwaitedSignalSchema = z.object({ name: z.string(), description: z.string(), schema: z.unknown() });

// The id lists above must stay the types they mirror: adding an id there without here fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const mirrors: [
  Same<z.infer<typeof SchemaNormalizerIdSchema>, SchemaNormalizerId>,
  Same<z.infer<typeof LwirValidatorIdSchema>, LwirValidatorId>,
  Same<z.infer<typeof ModelOverridesSchema>, ModelOverrides>,
] = [true, true, true];
void mirrors;
