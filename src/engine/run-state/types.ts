import type { AwaitedSignal, ChildOutcome, RunEvent, RunEventPayloads, RunTrigger, TokenUsage } from "../../ports/run-events.ts";
import type { RunStatus, WaitReason } from "../../ports/run-status.ts";
import type { PersistentMap, PersistentSet } from "./persistent-map.ts";

/** What the drive loop needs to know about a run, derived from its events alone. */
export type RunState = {
  readonly request: RunEventPayloads["RunRequested"] | null;
  readonly requestedAt: number;
  readonly status: RunStatus;
  readonly terminal: RunEvent | null;
  /** The outer-loop cycle being compiled or run: 1, plus one per OuterLoopCycleCompleted. */
  readonly cycle: number;
  /** Versions registered, by the cycle that compiled them. */
  readonly registered: ReadonlyMap<number, RunEventPayloads["WorkflowVersionRegistered"]>;
  readonly started: ReadonlySet<number>;
  readonly cyclesCompleted: readonly RunEventPayloads["OuterLoopCycleCompleted"][];
  /** Step paths to their recorded outputs (StepSucceeded). */
  readonly stepOutputs: PersistentMap<unknown>;
  readonly steps: PersistentMap<StepProgress>;
  readonly skipped: PersistentSet;
  readonly scheduled: PersistentSet;
  /** Approvals requested by tool calls, by approval id, with their decision when made. */
  readonly approvals: PersistentMap<ApprovalProgress>;
  /** The run is a section: an occurrence event was folded (every run has `o1`, a section's only show in its events). */
  readonly section: boolean;
  /** A section's occurrences in arrival order (the first is the run's own input). */
  readonly occurrences: readonly OccurrenceProgress[];
  /**
   * Models answered by the offline model (`provider/model`, first-seen order), from the
   * `offline: true` of `harness.model.responded`: non-empty when `auto` fell back or the Worker
   * runs `offline`, so a run never passes off a fake answer as a real one.
   */
  readonly offlineModels: readonly string[];
  /** RunCompleted's usage; before it, the sum over the model responses so far. */
  readonly usage: TokenUsage;
  /**
   * Steps that wait, by step path: for a decision on their approval, or out their retry backoff.
   * Only open waits are held (a handful at a time), so the map stays small.
   */
  readonly stepWaits: ReadonlyMap<string, StepWait>;
  /** A section has run every occurrence queued so far: it waits for the next trigger. */
  readonly idle: boolean;
  /** Why the run waits (status `waiting`), or null when it does not: see waits.ts. */
  readonly waitReason: WaitReason | null;
  /** Child runs its `workflow.run` steps started (ChildRunStarted), in start order, each with its end once known. */
  readonly children: readonly ChildProgress[];
  /** Signals sent to the run, by signal id, in arrival order (first in, first out), with the step that consumed each. */
  readonly signals: PersistentMap<SignalProgress>;
  /**
   * Where the run stands at its flow-control gates; absent until its first `FlowQueued` or
   * `FlowAdmitted` (so a run without flow control folds to the same state as before it existed).
   */
  readonly flow?: FlowProgress;
  /**
   * The run is paused (`RunPaused`, not yet `RunResumed`): who paused it and when. Absent when it
   * is not, so a run never paused folds to the same state as before pauses existed. `status` stays
   * what the run's own events make it; {@link runStatusOf} reports `paused` over it.
   */
  readonly paused?: PauseProgress;
  /** How many steps the version of a cycle has (its `RunStarted.steps`): the run's progress total. Absent before a plan exists. */
  readonly plannedSteps?: { readonly cycle: number; readonly steps: number };
};

/** Who paused the run, and when (the `RunPaused` event's `at`). */
export type PauseProgress = { readonly by: string; readonly at: number };

/** A run's flow-control gates: the one it waits at, the ones that admitted it, the status to go back to. */
export type FlowProgress = {
  /** The gate the run is queued at, as its `FlowQueued` said; null once admitted. */
  readonly queued: RunEventPayloads["FlowQueued"] | null;
  /** Gates that admitted the run, as `kind:gate` (a lost lease queues it again: FlowQueued removes its gate). */
  readonly admitted: readonly string[];
  /** The status the run had before it was queued, which admission restores (a queued run that never ran is `pending`). */
  readonly resume: RunStatus;
};

/** One received signal, and the wait.signal step that consumed it once one did. */
export type SignalProgress = {
  readonly signalId: string;
  readonly name: string;
  readonly payload: unknown;
  /** When it was appended (epoch ms). */
  readonly receivedAt: number;
  readonly consumedBy?: string;
};

/** One child run: what its parent recorded when starting it, and how it ended (ChildRunEnded). */
export type ChildProgress = RunEventPayloads["ChildRunStarted"] & { readonly startedAt: number; readonly ended?: ChildOutcome };

/** One step's open wait: until its approval expires, or until its retry is due. */
export type StepWait =
  | { readonly reason: "approval"; readonly approvalId: string; readonly until: number }
  | { readonly reason: "sleep"; readonly until: number }
  | { readonly reason: "signal"; readonly until: number; readonly signals: readonly AwaitedSignal[] }
  /** A workflow.run waits for its child's end: no deadline of its own (the step's timeoutMs, if any, is its StepStarted's). */
  | { readonly reason: "child"; readonly childRunId: string; readonly until: null }
  /** A model call waits for its model's shared limit until about `until` (the limiter's estimate). */
  | { readonly reason: "rate_limit"; readonly providerId: string; readonly modelId: string; readonly until: number };

/** One approval: what was asked, and the decision if one was made. */
export type ApprovalProgress = RunEventPayloads["ApprovalRequested"] & {
  readonly decision?: RunEventPayloads["ApprovalDecided"];
};

/** Where one occurrence of a section stands. */
export type OccurrenceProgress = {
  readonly occurrenceId: string;
  readonly input: unknown;
  readonly trigger: RunTrigger;
  readonly status: "queued" | "running" | "completed" | "failed";
  readonly output?: unknown;
  readonly cause?: { readonly code: string; readonly message: string };
  /** A failed occurrence the section's policy re-armed past (`onBodyFailure: "continue"`). */
  readonly rearmed?: boolean;
};

/** Where one step stands: its latest attempt, and what the log says of it. */
export type StepProgress = {
  readonly attempt: number;
  readonly started: boolean;
  readonly deadline?: number;
  readonly retryAt?: number;
  /** Why the previous attempt failed (a repairing model is told). */
  readonly previousError?: { readonly code: string; readonly message: string };
  /** The step failed for good (`StepFailed`): a resume must not run it again. */
  readonly failed?: { readonly code?: string; readonly message: string; readonly attempt: number };
};
