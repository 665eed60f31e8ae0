/**
 * A run's statuses: the one list the engine's fold, the run index, the API, the CLI and the
 * inspector share. Imports nothing, so the inspector's browser bundle takes it as is.
 *
 * `minted` exists only in the run index: an anchor created before its run starts (no events yet).
 * `waiting` is a run that cannot go on until something happens: its {@link WaitReason} says what.
 */
export const RUN_STATUSES = ["minted", "pending", "compiling", "running", "waiting", "completed", "failed", "cancelled"] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses a run ends in (RunCompleted, RunFailed, RunCancelled): nothing follows them. */
export const ENDED_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];

export type EndedStatus = (typeof ENDED_STATUSES)[number];

/**
 * Why a `waiting` run waits, derived from its events by the engine's fold:
 * - `approval`: a tool call waits for a person's decision (ApprovalRequested, undecided);
 * - `sleep`: a step waits out its retry backoff (StepRetried with a later `retryAt`);
 * - `trigger`: a section has run every queued occurrence and waits for the next trigger.
 * A run with several waits at once reports the first of this list that applies.
 */
export const WAIT_REASONS = ["approval", "sleep", "trigger"] as const;

export type WaitReason = (typeof WAIT_REASONS)[number];

/** The waits only someone outside the run ends (a decision, a trigger): a `sleep` ends by itself. */
export const OUTSIDE_WAIT_REASONS = ["approval", "trigger"] as const satisfies readonly WaitReason[];

/**
 * Where a wait for a run stops: it ended, or it waits for someone outside it (a decision, a
 * trigger). A run sleeping before a retry is not settled: it goes on by itself.
 */
export const SETTLED_STATUSES = [...ENDED_STATUSES, "waiting"] as const satisfies readonly RunStatus[];

const ENDED: ReadonlySet<string> = new Set(ENDED_STATUSES);
const SETTLED: ReadonlySet<string> = new Set(SETTLED_STATUSES);
const WAITS: ReadonlySet<string> = new Set(WAIT_REASONS);
const OUTSIDE: ReadonlySet<string> = new Set(OUTSIDE_WAIT_REASONS);

/** Whether a run in this status has ended (accepts any string: a client may read a newer server's). */
export function isEndedStatus(status: string): status is EndedStatus {
  return ENDED.has(status);
}

/** Whether a string is a wait reason this build knows. */
export function isWaitReason(reason: string): reason is WaitReason {
  return WAITS.has(reason);
}

/**
 * Whether a run in this status has ended, or waits for someone outside it. Pass the run's
 * `waitReason`: a `waiting` run given none (a server from before wait reasons) counts as settled,
 * as every waiting run then was a section between occurrences.
 *
 * @example
 * isSettledStatus("waiting", "approval") // true: only a decision moves it
 * isSettledStatus("waiting", "sleep") // false: it retries by itself
 */
export function isSettledStatus(status: string, waitReason?: string | null): boolean {
  if (!SETTLED.has(status)) return false;
  return status !== "waiting" || waitReason == null || OUTSIDE.has(waitReason);
}

/** Order of statuses: a run's status only ever moves to an equal or higher rank. */
export const RUN_STATUS_RANK: Readonly<Record<RunStatus, number>> = {
  minted: -1,
  pending: 0,
  compiling: 1,
  running: 2,
  waiting: 2,
  completed: 3,
  failed: 3,
  cancelled: 3,
};
