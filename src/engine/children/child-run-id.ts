import { digestJson, digestPrefix } from "../../json/digest.ts";

/**
 * The run id of the child a `workflow.run` step starts in one attempt: derived from the parent's
 * run id, the step path and the attempt, so a replayed or resumed parent starts the same child (the
 * start service answers it as it is) and never a second; a retry's next attempt starts a fresh one.
 * `run_child_` is reserved (derived-run-ids.ts): no caller can mint one first.
 *
 * @example
 * childRunId("run_abc", "refund", 1) // "run_child_" + 24 hex digits
 */
export function childRunId(parentRunId: string, stepPath: string, attempt: number): string {
  return `run_child_${digestPrefix(digestJson({ parentRunId, stepPath, attempt }), 24)}`;
}
