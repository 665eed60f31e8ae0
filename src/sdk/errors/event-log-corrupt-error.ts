import { LittleError } from "./little-error.ts";

/**
 * 500 `event_log_corrupt`: a stored row of a run's event log does not parse as the event its type
 * names (not JSON, an unknown type, a payload missing a required field or with a wrong type). A
 * server-side data fault, never the caller's: the API answers it with this code and the row's
 * `seq` in the message, not a stack trace; the run cannot be read or driven until the row is
 * repaired. Reading never guesses past a bad row.
 */
export class EventLogCorruptError extends LittleError {
  readonly code = "event_log_corrupt";
  readonly runId: string;
  /** The bad row's place in the log. */
  readonly seq: number;
  constructor(runId: string, seq: number, problem: string) {
    super(`The event log of run "${runId}" is corrupt at seq ${seq}: ${problem}`);
    this.name = "EventLogCorruptError";
    this.runId = runId;
    this.seq = seq;
  }
}
