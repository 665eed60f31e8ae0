import type { RecordedError } from "../ports/run-events.ts";

/**
 * A failed attempt of a step. `retriable` attempts are retried under the step's retry policy;
 * the rest fail the step (and the run) at once.
 */
export class StepAttemptError extends Error {
  readonly code: string;
  readonly retriable: boolean;
  constructor(code: string, message: string, retriable: boolean) {
    super(message);
    this.name = "StepAttemptError";
    this.code = code;
    this.retriable = retriable;
  }

  toRecorded(): RecordedError {
    return { name: this.name, code: this.code, message: this.message, retriable: this.retriable };
  }
}
