import { AISDKError } from "@ai-sdk/provider";
import type { RunCauseCode } from "../ports/run-events.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { RunFailure } from "./run-failure.ts";

/** Named errors that end a run with a cause of their own; any other named error is `internal_error`. */
const CAUSE_OF: Readonly<Record<string, RunCauseCode>> = {
  capability_drift: "capability_drift",
  non_deterministic_replay: "non_deterministic_replay",
  model_unavailable: "model_unavailable",
  version_id_collision: "version_id_collision",
  model_timeout: "model_timeout",
  model_protocol_error: "model_protocol_error",
  // A definition built around defineWorkflow's check (src/harness/harness-registry.ts).
  harness_unknown: "workflow_definition_invalid",
};

/**
 * Internal codes: a step attempt never leaves its step and a memory change is checked before it
 * is saved, so one arriving here is a bug (re-thrown, retried by the alarm), like an unnamed error.
 */
const BUGS: ReadonlySet<string> = new Set(["step_attempt_failed", "memory_change_invalid"]);

/**
 * Maps a thrown value to the run failure it means, or null for a bug (re-thrown, retried by the
 * alarm). Provider failures are recognised by the AI SDK's own marker (`AISDKError.isInstance`,
 * true for `APICallError`, `RetryError`, `InvalidToolInputError`, `NoOutputGeneratedError` and
 * every other error of `ai` and its providers): live, and replayed from the log, where
 * `durable-model.ts` rebuilds a recorded one as an `AISDKError`.
 */
export function toRunFailure(error: unknown): RunFailure | null {
  if (error instanceof RunFailure) return error;
  if (LittleError.is(error)) {
    if (BUGS.has(error.code)) return null;
    const cause = CAUSE_OF[error.code];
    if (cause === undefined) return new RunFailure("internal_error", error.message);
    const diff = (error as { diff?: unknown }).diff;
    return new RunFailure(cause, error.message, cause === "capability_drift" ? { diff } : undefined);
  }
  if (AISDKError.isInstance(error)) return new RunFailure("model_error", error.message);
  return null;
}
