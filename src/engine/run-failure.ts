import type { RunCauseCode } from "../ports/run-events.ts";

/**
 * A reason to end the run as failed, raised anywhere in the drive loop and turned into one
 * `RunFailed { causeCode }` at its top.
 */
export class RunFailure extends Error {
  readonly causeCode: RunCauseCode;
  readonly details: unknown;
  constructor(causeCode: RunCauseCode, message: string, details?: unknown) {
    super(message);
    this.name = "RunFailure";
    this.causeCode = causeCode;
    this.details = details;
  }
}
