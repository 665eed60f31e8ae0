import type { OccurrenceProgress, RunState } from "../engine/run-state.ts";
import type { HarnessRole, RecordedError, RunCauseCode, RunEventPayloads, RunTrigger, TokenUsage } from "../ports/run-events.ts";
import type { RunStatus, WaitReason } from "../ports/run-status.ts";

/** The inspector's view of a run: what the page draws. Built by run-view.ts. */

/**
 * A node's colour. `waiting`: a tool call of the step waits for an approval; `stopped`: it was in
 * flight when the run failed or was cancelled.
 */
export type StepStatus = "pending" | "scheduled" | "running" | "waiting" | "retrying" | "succeeded" | "failed" | "skipped" | "stopped";

export type CallStatus = "running" | "succeeded" | "failed";

export type ModelCallView = {
  readonly callId: string;
  readonly sessionId: string;
  readonly turn: number;
  readonly modelSlotId: string;
  readonly providerId: string;
  readonly modelId: string;
  readonly startedAt: number;
  endedAt: number | null;
  status: CallStatus;
  offline: boolean | null;
  usage: TokenUsage | null;
  error: RecordedError | null;
};

export type ToolCallView = {
  readonly callId: string;
  readonly sessionId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly startedAt: number;
  endedAt: number | null;
  status: CallStatus;
  result: unknown;
  error: RecordedError | null;
};

export type SessionView = {
  readonly sessionId: string;
  readonly role: HarnessRole;
  readonly stepPath: string | null;
  readonly startedAt: number;
  endedAt: number | null;
  status: CallStatus;
  failure: { readonly causeCode: RunCauseCode; readonly message: string } | null;
};

export type AttemptView = {
  readonly path: string;
  readonly attempt: number;
  readonly startedAt: number;
  endedAt: number | null;
  outcome: "running" | "succeeded" | "failed" | "retried";
  error: RecordedError | null;
};

export type ApprovalView = {
  readonly approvalId: string;
  readonly path: string;
  readonly tool: string;
  readonly args: unknown;
  readonly requestedAt: number;
  readonly expiresAt: number;
  decidedAt: number | null;
  decision: "approved" | "denied" | null;
  reason: string | null;
};

export type BranchView = { readonly key: string; readonly path: string; status: StepStatus };

export type StepView = {
  readonly id: string;
  status: StepStatus;
  /** Loop visits seen (1 unless a decision sent the run back to this step). */
  visits: number;
  attempts: AttemptView[];
  branches: BranchView[];
  /** `undefined` until the step succeeds. */
  output: unknown;
  error: RecordedError | null;
  skippedReason: string | null;
  modelCalls: ModelCallView[];
  toolCalls: ToolCallView[];
  sessions: SessionView[];
  approvals: ApprovalView[];
};

/**
 * One occurrence of a section (a run serving many triggers): the fold's {@link OccurrenceProgress},
 * with the times the page shows.
 */
export type OccurrenceView = {
  readonly id: string;
  readonly status: OccurrenceProgress["status"];
  /** When it was queued (the run's request for the first); null if the page never saw it. */
  readonly queuedAt: number | null;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  readonly trigger: RunTrigger["kind"];
  readonly output: unknown;
  readonly failure: { readonly causeCode: RunCauseCode; readonly message: string } | null;
  /** A failed occurrence the section went on past (`onBodyFailure: "continue"`). */
  readonly rearmed: boolean;
};

/** One finished outer-loop cycle: the fold's OuterLoopCycleCompleted, with when it ended. */
export type CycleView = RunEventPayloads["OuterLoopCycleCompleted"] & { readonly endedAt: number | null };

export type RunFailure = { readonly causeCode: RunCauseCode; readonly message: string; readonly details?: unknown };

export type RunView = {
  /**
   * The engine's own reading of the log (src/engine/run-state.ts), advanced by its transitions.
   * The run-level fields below are copied from it as it changes; the page derives none of them.
   */
  state: RunState;
  lastSeq: number;
  status: RunStatus;
  /** Why a `waiting` run waits (the fold's reason: `approval`, `sleep`, `trigger`); null otherwise. */
  waitReason: WaitReason | null;
  workflowId: string | null;
  input: unknown;
  requestedAt: number | null;
  startedAt: number | null;
  endedAt: number | null;
  cycle: number;
  /** The section occurrence the steps belong to (the latest started), or null outside sections. */
  occurrence: string | null;
  /** A section's occurrences in arrival order, queued ones included; empty for a run that is no section. */
  occurrences: OccurrenceView[];
  /** Outer-loop cycles that finished (a `replan` decision sends the run back to compiling). */
  cycles: CycleView[];
  versionId: string | null;
  version: { readonly versionHash: string; readonly lockHash: string; readonly definitionHash: string } | null;
  steps: Record<string, StepView>;
  /** Planner sessions and their calls: the compile stages. */
  planner: { sessions: SessionView[]; modelCalls: ModelCallView[]; toolCalls: ToolCallView[] };
  output: unknown;
  failure: RunFailure | null;
  cancelReason: string | null;
  /** The fold's usage: RunCompleted's, else the sum over the responded model calls so far. */
  usage: TokenUsage;
  /**
   * Models the offline model answered for (`provider/model`), over every cycle and occurrence:
   * the page flags the run when `LITTLE_MODELS=auto` fell back (or the Worker runs offline).
   */
  offlineModels: readonly string[];
};
