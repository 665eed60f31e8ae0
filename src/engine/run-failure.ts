import type { RunCauseCode } from "../ports/run-events.ts";
import { LittleError } from "../sdk/errors/little-error.ts";

/**
 * A reason to end the run as failed, raised anywhere in the drive loop and turned into one
 * `RunFailed { causeCode }` at its top (see `toRunFailure`). Its code, `run_failed`, is internal:
 * a run failure ends a run, never an HTTP request; `causeCode` is what clients see on the run.
 */
export class RunFailure extends LittleError {
  readonly code = "run_failed";
  readonly causeCode: RunCauseCode;
  readonly details: unknown;
  constructor(causeCode: RunCauseCode, message: string, details?: unknown) {
    super(message);
    this.name = "RunFailure";
    this.causeCode = causeCode;
    this.details = details;
  }
}
