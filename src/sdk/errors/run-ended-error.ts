import { LittleError } from "./little-error.ts";

/**
 * 409 `run_ended`: the run has ended (completed, failed or cancelled), so it takes no more
 * triggers, signals, decisions, pauses or child results; nothing was appended.
 */
export class RunEndedError extends LittleError {
  readonly code = "run_ended";
  constructor(message: string) {
    super(message);
    this.name = "RunEndedError";
  }
}
