import type { RecordedError } from "../ports/run-events.ts";
import { LittleError } from "../sdk/errors/little-error.ts";

/**
 * A failed attempt of a step. `retriable` attempts are retried under the step's retry policy;
 * the rest fail the step (and the run) at once. `attemptCode` (`step_timeout`, `tool_failed`,
 * `output_invalid`, …) is what the log records as the attempt's error code; the error's own code,
 * `step_attempt_failed`, is internal: an attempt never leaves the step that ran it.
 */
export class StepAttemptError extends LittleError {
  readonly code = "step_attempt_failed";
  readonly attemptCode: string;
  readonly retriable: boolean;
  constructor(attemptCode: string, message: string, retriable: boolean) {
    super(message);
    this.name = "StepAttemptError";
    this.attemptCode = attemptCode;
    this.retriable = retriable;
  }

  toRecorded(): RecordedError {
    return { name: this.name, code: this.attemptCode, message: this.message, retriable: this.retriable };
  }
}
