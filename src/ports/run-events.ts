import type { LwirValidatorId } from "../identity/lwir-validator-id.ts";
import type { ModelOverrides } from "../identity/model-overrides.ts";
import type { Digest } from "../json/digest.ts";
import type { SchemaNormalizerId } from "../schema/normalize-schema.ts";
import { RunTerminatedError } from "../sdk/errors/run-terminated-error.ts";
import type { FlowGate, FlowGateKind } from "./flow-limiter.ts";

/**
 * The run event log's types: one discriminated union (the event names are listed in docs/runs.md).
 * Payloads are canonical JSON; secrets never enter them. `seq` is 1-based and dense per run.
 */

/** Where a run object lives; needed to address it again (a jurisdiction is its own namespace). */
export type RunPlacement = { readonly jurisdiction?: string; readonly locationHint?: string };

/** What started a run; `id` is the trigger's own key (idempotency key, webhook id, cron tick, queue message id). */
export type RunTrigger = {
  readonly kind: "http" | "webhook" | "programmatic" | "lwir" | "cron" | "queue" | "child" | "restart" | "fork";
  readonly id?: string;
};

/**
 * The run a child run was started by (a `workflow.run` step): where to tell it the child ended,
 * and how deep the call chain is (a root run is depth 0; its children 1).
 */
export type ParentRef = {
  readonly runId: string;
  readonly stepPath: string;
  readonly attempt: number;
  readonly tenant: string;
  readonly placement?: RunPlacement;
  readonly depth: number;
};

/**
 * A restart's or a fork's source (docs/runs.md, "Restart and forks"): the ended run whose recorded
 * step results this run reuses where a step's content key matches, read from that run's own log.
 * `rerun` (a restart's `fromStep` and everything downstream of it) runs afresh whatever its key.
 */
export type RunMemo = {
  readonly relation: "restart" | "fork";
  readonly sourceRunId: string;
  readonly placement?: RunPlacement;
  readonly fromStep?: string;
  readonly rerun?: readonly string[];
};

/** How a child run ended, as its parent records it (`ChildRunEnded`). */
export type ChildOutcome =
  | { readonly status: "completed"; readonly output: unknown }
  | { readonly status: "failed" | "cancelled"; readonly cause: { readonly code: string; readonly message: string } };

/** Roles of harness sessions and the task kinds they run. */
export type HarnessRole = "planner" | "worker" | "fixer";
export type HarnessTaskKind = "plan" | "execute_step" | "fix_step";

/** A structured failure, as recorded. */
export type RecordedError = { readonly name: string; readonly code?: string; readonly message: string; readonly retriable: boolean };

/**
 * Why an outer-loop cycle failed, as recorded and as the next planner sees it. Redacted like every
 * payload; `details` is the failure's own (tagged JSON: findings, the step's error code).
 */
export type CycleFailure = {
  readonly causeCode: RunCauseCode;
  readonly message: string;
  /** The step that failed, for `step_failed`: its LWIR id and its path in this run. */
  readonly stepId?: string;
  readonly stepPath?: string;
  readonly details?: unknown;
  /**
   * Steps of the failed cycle that succeeded before it failed (their effects, a tool's included,
   * already happened; the next cycle's idempotency keys differ). Present only when there were any.
   */
  readonly succeededSteps?: readonly SucceededStep[];
  /** How many more steps succeeded than `succeededSteps` lists (it is capped); absent when none were left out. */
  readonly succeededStepsOmitted?: number;
};

/** A step that succeeded in a failed cycle: its output (redacted), or a preview when it is large. */
export type SucceededStep = {
  readonly stepId: string;
  readonly stepPath: string;
  readonly output?: unknown;
  /** The first characters of the output's JSON, when the whole is over the cap. */
  readonly outputPreview?: string;
};

/** Token usage, summed per call and per run. */
export type TokenUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** USD, from the slot's declared pricing; null when any call's model is unpriced (or offline). */
  readonly costUsd: number | null;
};

/** Why a run failed: stable codes clients branch on. */
export type RunCauseCode =
  | "input_schema_error"
  | "output_schema_error"
  | "workflow_not_found"
  | "workflow_missing_tool"
  | "workflow_definition_invalid"
  | "capability_drift"
  | "non_deterministic_replay"
  | "planner_validation_exhausted"
  | "planner_no_lwir"
  | "lwir_invalid"
  | "code_integrity"
  | "run_timeout"
  | "outer_loop_exhausted"
  /** `supervise` threw on a completed cycle (on a failed cycle the run ends with that cycle's own cause). */
  | "supervise_failed"
  | "model_unavailable"
  | "model_error"
  | "model_timeout"
  /** A provider answered a streamed call with a plain JSON body (docs/models.md), after the retries. */
  | "model_protocol_error"
  | "step_failed"
  | "definition_not_approved"
  /** The tenant revoked the approval the run was started under (`DELETE /v1/definitions/:hash/approve`). */
  | "definition_approval_revoked"
  /** A section occurrence ran past `onTrigger.occurrenceTimeoutMs` (the occurrence's cause; the run's under `"end"`). */
  | "occurrence_timeout"
  /** A waiting section was ended so a section under the redeployed definition takes its pending occurrences. */
  | "section_superseded"
  | "pinned_version_invalid"
  | "secrets_unavailable"
  | "version_id_collision"
  | "lwir_too_large"
  | "model_tokens_exceeded"
  | "event_log_too_large"
  | "internal_error";

export type RunEventPayloads = {
  RunRequested: {
    workflowId: string;
    input: unknown;
    trigger: RunTrigger;
    tenant: string;
    placement?: RunPlacement;
    lwir?: unknown;
    /** The approved definition hash the start was checked against (workflows with `requireApproval`). */
    approvedDefinitionHash?: Digest;
    /**
     * Which approval of that hash (its `approvedAt`): a revocation followed by a re-approval of the
     * same hash is another approval, and a run started under the first fails closed. Absent in logs
     * from before it (those match by hash alone).
     */
    approvedAt?: number;
    /** The version pinned for the approved definition (its display id): the run executes it with no planner. */
    pinnedVersionId?: string;
    /** The pinned version's full hash: what the run looks up and executes (absent in logs from before it). */
    pinnedVersionHash?: Digest;
    /** The schema normalizer the run keeps for life; absent in logs from before it: `little-workflow-schema@1` (docs/identity.md). */
    schemaNormalizer?: SchemaNormalizerId;
    /** The LWIR validator the run keeps for life; absent in logs from before it: `little-workflow-lwir-validator@1` (docs/identity.md). */
    lwirValidator?: LwirValidatorId;
    /** Present on a child run (a parent's `workflow.run` step started it): where its end is reported. */
    parent?: ParentRef;
    /** The flow-control gates the run passes before it is driven, in order (docs/flow-control.md); absent when the workflow has none. */
    flow?: FlowGate[];
    /** The caller's W3C `traceparent` (normalized), when the start carried one: the run's trace is a child of that span (docs/observability.md). */
    traceparent?: string;
    /** A restart or a fork: the run whose recorded step results it reuses (docs/runs.md). */
    memo?: RunMemo;
    /** A fork's model changes (`models: { slot: "provider:model" }`), over the deployment's: part of this run's definition hash. */
    modelOverrides?: ModelOverrides;
    /** The start's tags (`key` → `value`, at most 16): in the run index for `GET /v1/runs?tag=key:value`. */
    tags?: Record<string, string>;
  };
  "harness.session.started": {
    sessionId: string;
    role: HarnessRole;
    kind: HarnessTaskKind;
    manifestHash: Digest;
    manifest: unknown;
    stepPath?: string;
    cycle?: number;
  };
  "harness.session.completed": { sessionId: string; role: HarnessRole; output: unknown; fixedSource?: string };
  "harness.session.failed": { sessionId: string; role: HarnessRole; causeCode: RunCauseCode; message: string };
  "harness.model.called": {
    sessionId: string;
    callId: string;
    turn: number;
    requestHash: Digest;
    modelSlotId: string;
    providerId: string;
    modelId: string;
  };
  "harness.model.responded": {
    sessionId: string;
    callId: string;
    response: unknown;
    usage: TokenUsage;
    model: { providerId: string; modelId: string; offline: boolean };
  };
  "harness.model.failed": { sessionId: string; callId: string; error: RecordedError };
  "harness.tool_call.started": { sessionId: string; callId: string; caller: "model"; tool: string; args: unknown; idempotencyKey: string };
  "harness.tool_call.succeeded": { sessionId: string; callId: string; tool: string; result: unknown; scratch?: Record<string, string> };
  "harness.tool_call.failed": { sessionId: string; callId: string; tool: string; error: RecordedError };
  WorkflowVersionRegistered: { versionId: string; versionHash: Digest; lockHash: Digest; definitionHash: Digest; warnings: unknown[] };
  /** `steps`: how many steps the version's LWIR has (the run's progress); absent in logs from before it was recorded. */
  RunStarted: { versionId: string; lockHash: Digest; cycle: number; steps?: number };
  StepScheduled: { stepPath: string };
  StepStarted: { stepPath: string; attempt: number; deadline?: number };
  /** `reused`: the output is the source run's (a restart or fork, docs/runs.md): nothing was called; `seq` is its StepSucceeded there. */
  StepSucceeded: { stepPath: string; attempt: number; output: unknown; reused?: { runId: string; seq: number } };
  StepFailed: { stepPath: string; attempt: number; error: RecordedError };
  StepRetried: { stepPath: string; attempt: number; retryAt: number; error: RecordedError };
  StepSkipped: { stepPath: string; reason: string };
  OuterLoopCycleCompleted: {
    cycleNumber: number;
    status: "completed" | "failed";
    output: unknown;
    summary?: string;
    decision: "accept" | "replan";
    /** Why a `failed` cycle failed: what the next cycle's planner is told (docs/runs.md, the outer loop). */
    failure?: CycleFailure;
  };
  /** A tool call that needs approval waits for a decision bound to the hash of its arguments. */
  ApprovalRequested: { approvalId: string; stepPath: string; tool: string; args: unknown; argsHash: Digest; expiresAt: number };
  ApprovalDecided: { approvalId: string; decision: "approved" | "denied"; argsHash: Digest; reason?: string };
  /** A trigger addressed to a section run: its payload is the occurrence's input. */
  OccurrenceQueued: { occurrenceId: string; input: unknown; trigger: RunTrigger };
  OccurrenceStarted: { occurrenceId: string };
  OccurrenceCompleted: { occurrenceId: string; output: unknown };
  /** `rearmed`: the section's `onBodyFailure` is "continue", so the run waits for the next trigger. */
  OccurrenceFailed: { occurrenceId: string; causeCode: RunCauseCode; message: string; rearmed: boolean };
  RunCompleted: { output: unknown; usage: TokenUsage; versionId: string };
  RunFailed: { causeCode: RunCauseCode; message: string; details?: unknown };
  RunCancelled: { reason: string };
  /** An operator paused the run: no new step, model call or occurrence starts until `RunResumed` (docs/runs.md, "Pause and resume"). `by` names who (the token, or the RPC caller). */
  RunPaused: { by: string };
  /** The run goes on after a `RunPaused`. */
  RunResumed: { by: string };
  /**
   * A wait step (`wait.sleep`, `wait.signal`) began waiting: its deadline (epoch ms, the run
   * object's alarm) and, for a signal wait, the signals it takes with their payload schemas.
   */
  WaitStarted: { stepPath: string; attempt: number; kind: "sleep" | "signal"; until: number; signals?: AwaitedSignal[] };
  /** A signal sent to the run, validated and durable before its sender was answered; `signalId` makes a resend idempotent. */
  SignalReceived: { signalId: string; name: string; payload: unknown };
  /** A wait.signal step took a received signal (first in, first out among those it names). */
  SignalConsumed: { signalId: string; stepPath: string };
  /**
   * A `workflow.run` step is about to start its child: appended before the start, so a resumed
   * parent starts the same child id (derived from run id, step path and attempt) and never a second one.
   */
  ChildRunStarted: { stepPath: string; attempt: number; childRunId: string; workflowId: string; placement?: RunPlacement };
  /** The child ended (its run object told this one, or a resumed step asked it): the step's outcome. */
  ChildRunEnded: { stepPath: string; attempt: number; childRunId: string } & ChildOutcome;
  /**
   * The run waits in its key's queue for this gate (`waitReason` `concurrency` or `throttle`); `position` as of this event.
   * `scope` `tenant`: the gate is one of the tenant's start quotas (FlowGate.scope), not the workflow's flow control.
   */
  FlowQueued: { kind: FlowGateKind; gate: number; key: string; position: number; scope?: "tenant" };
  /** The gate admitted the run: it holds a slot of its key (concurrency) or took a start of the window (throttle) since `admittedAt` (the limiter's clock). */
  FlowAdmitted: { kind: FlowGateKind; gate: number; key: string; admittedAt: number; scope?: "tenant" };
  /**
   * A step's model call waits for its model's shared limit (docs/flow-control.md, "Model limits"):
   * the limiter said no until `until` (its clock), over a limit or paused by a provider's
   * Retry-After (`waitReason` `rate_limit`). Logged once per wait, before it.
   */
  ModelRateLimited: { stepPath: string; providerId: string; modelId: string; until: number };
  /** The limiter let the call go: the step runs again (closes the step's ModelRateLimited). */
  ModelRateLimitLifted: { stepPath: string; providerId: string; modelId: string };
};

/** A signal a wait takes, as its WaitStarted records it (what a form for it is generated from). */
export type AwaitedSignal = { readonly name: string; readonly description: string; readonly schema: unknown };

export type RunEventType = keyof RunEventPayloads;

/** One event as stored: the envelope around a typed payload. */
export type RunEvent<T extends RunEventType = RunEventType> = {
  [K in T]: { readonly seq: number; readonly runId: string; readonly type: K; readonly at: number; readonly payload: RunEventPayloads[K] };
}[T];

/** An event about to be appended (the log assigns `seq`, `runId` and `at`). */
export type NewRunEvent<T extends RunEventType = RunEventType> = {
  [K in T]: { readonly type: K; readonly payload: RunEventPayloads[K] };
}[T];

export const TERMINAL_EVENT_TYPES = ["RunCompleted", "RunFailed", "RunCancelled"] as const satisfies readonly RunEventType[];

export { RUN_STATUS_RANK, type RunStatus } from "./run-status.ts";

/** True for RunCompleted, RunFailed and RunCancelled: nothing may follow them. */
export function isTerminalType(type: string): boolean {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(type);
}

/** Refuses a batch in which anything follows a terminal event. */
export function assertTerminalLast(runId: string, events: readonly { type: string }[]): void {
  const terminal = events.findIndex((e) => isTerminalType(e.type));
  if (terminal !== -1 && terminal < events.length - 1) throw new RunTerminatedError(runId, (events[terminal] as { type: string }).type);
}

/** Whether a type matches any pattern: exact, or a prefix written with a trailing `*`. */
export function matchesTypePattern(type: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith("*") ? type.startsWith(p.slice(0, -1)) : type === p));
}
