/**
 * A run's statuses: the one list the engine's fold, the run index, the API, the CLI and the
 * inspector share. Imports nothing, so the inspector's browser bundle takes it as is.
 *
 * `minted` exists only in the run index: an anchor created before its run starts (no events yet).
 * `waiting` is a run that cannot go on until something happens: its {@link WaitReason} says what.
 * `paused` is a run an operator paused (`RunPaused`): nothing new starts in it until it is resumed.
 */
export const RUN_STATUSES = ["minted", "pending", "compiling", "running", "waiting", "paused", "completed", "failed", "cancelled"] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses a run ends in (RunCompleted, RunFailed, RunCancelled): nothing follows them. */
export const ENDED_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];

export type EndedStatus = (typeof ENDED_STATUSES)[number];

/**
 * Why a `waiting` run waits, derived from its events by the engine's fold:
 * - `approval`: a tool call waits for a person's decision (ApprovalRequested, undecided);
 * - `sleep`: a step waits out its retry backoff (StepRetried with a later `retryAt`), or a `wait.sleep` step sleeps;
 * - `trigger`: a section has run every queued occurrence and waits for the next trigger;
 * - `signal`: a `wait.signal` step waits for one of its signals (or its timeout);
 * - `child`: a `workflow.run` step waits for the child run it started to end (ChildRunStarted, no ChildRunEnded);
 * - `concurrency`: the run is queued behind its key's concurrency limit (FlowQueued, not yet FlowAdmitted);
 * - `throttle`: the run is queued until its key's throttle window has room;
 * - `rate_limit`: a model call waits for its model slot's shared rate limit.
 * A run with several waits at once reports the first of this list that applies.
 */
export const WAIT_REASONS = ["approval", "sleep", "trigger", "signal", "child", "concurrency", "throttle", "rate_limit"] as const;

export type WaitReason = (typeof WAIT_REASONS)[number];

/**
 * The waits that settle a run for a caller waiting on it (`?wait=`, `waitForEnd`, `little run
 * --wait`): a section that ran every queued occurrence has done its work for now. A run waiting
 * for an approval or sleeping before a retry is in the middle of its work: the caller keeps
 * waiting (and sees `waiting` with the reason when its wait runs out).
 */
export const SETTLING_WAIT_REASONS = ["trigger"] as const satisfies readonly WaitReason[];

/** Where a wait for a run may stop: it ended, or (with a settling wait reason) it waits. */
export const SETTLED_STATUSES = [...ENDED_STATUSES, "waiting"] as const satisfies readonly RunStatus[];

const ENDED: ReadonlySet<string> = new Set(ENDED_STATUSES);
const SETTLED: ReadonlySet<string> = new Set(SETTLED_STATUSES);
const WAITS: ReadonlySet<string> = new Set(WAIT_REASONS);
const SETTLING: ReadonlySet<string> = new Set(SETTLING_WAIT_REASONS);

/** Whether a run in this status has ended (accepts any string: a client may read a newer server's). */
export function isEndedStatus(status: string): status is EndedStatus {
  return ENDED.has(status);
}

/** Whether a string is a wait reason this build knows. */
export function isWaitReason(reason: string): reason is WaitReason {
  return WAITS.has(reason);
}

/**
 * Whether a caller waiting on a run may stop: it ended, or it is a section waiting for its next
 * trigger. Pass the run's `waitReason`: a `waiting` run given none (a server from before wait
 * reasons) counts as settled, as every waiting run then was a section between occurrences.
 *
 * @example
 * isSettledStatus("waiting", "trigger") // true: the section ran every queued occurrence
 * isSettledStatus("waiting", "approval") // false: the run is mid-work, a decision lets it go on
 */
export function isSettledStatus(status: string, waitReason?: string | null): boolean {
  if (!SETTLED.has(status)) return false;
  return status !== "waiting" || waitReason == null || SETTLING.has(waitReason);
}

/** Order of statuses: a run's status only ever moves to an equal or higher rank. */
export const RUN_STATUS_RANK: Readonly<Record<RunStatus, number>> = {
  minted: -1,
  pending: 0,
  compiling: 1,
  running: 2,
  waiting: 2,
  paused: 2,
  completed: 3,
  failed: 3,
  cancelled: 3,
};
