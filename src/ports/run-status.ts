/**
 * A run's statuses: the one list the engine's fold, the run index, the API, the CLI and the
 * inspector share. Imports nothing, so the inspector's browser bundle takes it as is.
 *
 * `minted` exists only in the run index: an anchor created before its run starts (no events yet).
 * `waiting` is a section between occurrences.
 */
export const RUN_STATUSES = ["minted", "pending", "compiling", "running", "waiting", "completed", "failed", "cancelled"] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses a run ends in (RunCompleted, RunFailed, RunCancelled): nothing follows them. */
export const ENDED_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];

export type EndedStatus = (typeof ENDED_STATUSES)[number];

/** Where a wait for a run stops: it ended, or a section run has run every queued occurrence. */
export const SETTLED_STATUSES = [...ENDED_STATUSES, "waiting"] as const satisfies readonly RunStatus[];

const ENDED: ReadonlySet<string> = new Set(ENDED_STATUSES);
const SETTLED: ReadonlySet<string> = new Set(SETTLED_STATUSES);

/** Whether a run in this status has ended (accepts any string: a client may read a newer server's). */
export function isEndedStatus(status: string): status is EndedStatus {
  return ENDED.has(status);
}

/** Whether a run in this status has ended or is a section waiting for its next trigger. */
export function isSettledStatus(status: string): boolean {
  return SETTLED.has(status);
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
