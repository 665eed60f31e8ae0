import { z } from "zod";

/** Why a run failed: stable codes clients branch on (`RunFailed.causeCode` and the failures that lead to it). */
export const RunCauseCodeSchema = z.enum([
  "input_schema_error",
  "output_schema_error",
  "workflow_not_found",
  "workflow_missing_tool",
  "workflow_definition_invalid",
  "capability_drift",
  "non_deterministic_replay",
  "planner_validation_exhausted",
  "planner_no_lwir",
  "lwir_invalid",
  "code_integrity",
  "run_timeout",
  "outer_loop_exhausted",
  // `supervise` threw on a completed cycle (on a failed cycle the run ends with that cycle's own cause).
  "supervise_failed",
  "model_unavailable",
  "model_error",
  "model_timeout",
  // A provider answered a streamed call with a plain JSON body (docs/models.md), after the retries.
  "model_protocol_error",
  "step_failed",
  "definition_not_approved",
  // The tenant revoked the approval the run was started under (`DELETE /v1/definitions/:hash/approve`).
  "definition_approval_revoked",
  // A section occurrence ran past `onTrigger.occurrenceTimeoutMs` (the occurrence's cause; the run's under `"end"`).
  "occurrence_timeout",
  // A waiting section was ended so a section under the redeployed definition takes its pending occurrences.
  "section_superseded",
  "pinned_version_invalid",
  "secrets_unavailable",
  "version_id_collision",
  "lwir_too_large",
  "model_tokens_exceeded",
  "event_log_too_large",
  "internal_error",
]);

/** Why a run failed: stable codes clients branch on. */
export type RunCauseCode = z.infer<typeof RunCauseCodeSchema>;
