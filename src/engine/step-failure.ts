import type { RecordedError, RunCauseCode } from "../ports/run-events.ts";
import type { RunCodeErrorCode } from "../ports/sandbox.ts";
import { LittleError } from "../sdk/errors/little-error.ts";

/**
 * What a failed attempt records as its error code: the step kinds' own (a tool's, an approval's, a
 * loop's, the fixer's), a sandbox's code-run error, or a worker session's cause.
 */
export type StepAttemptCode =
  | "step_timeout"
  | "step_kind_unsupported"
  | "output_invalid"
  | "tool_failed"
  | "tool_input_invalid"
  | "tool_output_invalid"
  | "tool_not_executable"
  | "approval_args_mismatch"
  | "approval_denied"
  | "approval_timeout"
  | "loop_exhausted"
  | "fixer_exhausted"
  | "fixer_failed"
  | "wait_until_invalid"
  | "wait_too_long"
  | "signal_not_declared"
  /** workflow.run: the child was cancelled, its start refused, its output refused, or the calls nest too deep. */
  | "child_cancelled"
  | "child_start_refused"
  | "child_output_invalid"
  | "workflow_depth_exceeded"
  | RunCodeErrorCode
  | RunCauseCode;

/**
 * A failed attempt of a step. `retriable` attempts are retried under the step's retry policy;
 * the rest fail the step (and the run) at once. `attemptCode` (`step_timeout`, `tool_failed`,
 * `output_invalid`, …) is what the log records as the attempt's error code; the error's own code,
 * `step_attempt_failed`, is internal: an attempt never leaves the step that ran it.
 */
export class StepAttemptError extends LittleError {
  readonly code = "step_attempt_failed";
  readonly attemptCode: StepAttemptCode;
  readonly retriable: boolean;
  constructor(attemptCode: StepAttemptCode, message: string, retriable: boolean) {
    super(message);
    this.name = "StepAttemptError";
    this.attemptCode = attemptCode;
    this.retriable = retriable;
  }

  toRecorded(): RecordedError {
    return { name: this.name, code: this.attemptCode, message: this.message, retriable: this.retriable };
  }
}
