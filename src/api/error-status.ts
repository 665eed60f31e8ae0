import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The one table of error codes and the HTTP status each is answered with. Every named error of
 * the project (`LittleError` subclasses, `ApiError`s, the run object's refusals) has its code
 * here; `errors.ts` and every route read the status from it, so a code cannot answer with two
 * statuses by accident. A code is stable API: never rename one.
 *
 * 4xx: the caller can act on it. 5xx: `insecure_configuration` and `database_not_migrated` (the deployment must be fixed),
 * `run_start_unconfirmed` (retry the same start), `event_log_corrupt` (a stored event row does not parse: answered with its code), and the internal codes (a bug when one reaches HTTP: answered `internal_error`, the error logged).
 * `test/api/error-status.test.ts` checks both rules and that every named error class is listed.
 */
export const ERROR_STATUS = {
  // Requests: shape and size.
  invalid_json: 400,
  invalid_request: 400,
  invalid_cursor: 400,
  event_type_unknown: 400,
  payload_too_large: 413,
  lwir_too_large: 413,
  unsupported_media_type: 415,
  // Authentication, tenancy, scopes.
  unauthorized: 401,
  token_expired: 401,
  token_revoked: 401,
  token_expiry_invalid: 400,
  tenant_required: 400,
  tenant_forbidden: 403,
  insufficient_scope: 403,
  // Things that are not there (another tenant's run is one of them).
  not_found: 404,
  run_not_found: 404,
  workflow_not_found: 404,
  version_not_found: 404,
  definition_not_found: 404,
  definition_approval_not_found: 404,
  secret_not_found: 404,
  token_not_found: 404,
  approval_not_found: 404,
  webhook_not_configured: 404,
  workflow_not_registered: 404,
  // Starting and triggering runs.
  input_schema_error: 422,
  run_tags_invalid: 422,
  idempotency_conflict: 409,
  run_id_conflict: 409,
  run_id_reserved: 422,
  webhook_id_conflict: 409,
  anchor_workflow_mismatch: 409,
  run_ended: 409,
  run_not_a_section: 409,
  // Sections across a redeploy (POST /v1/runs/:runId/supersede).
  section_not_waiting: 409,
  section_stale: 409,
  section_not_live: 409,
  quota_exceeded: 429,
  // Approvals of tool calls.
  approval_args_mismatch: 409,
  approval_already_decided: 409,
  approval_expired: 409,
  // A guarded end of a run (a revoked approval ends only the runs started under it).
  run_not_under_approval: 409,
  // Between a parent run and its children (never a caller's request).
  child_not_found: 404,
  child_runs_unsupported: 409,
  // Webhooks.
  webhook_headers_missing: 400,
  webhook_body_invalid_encoding: 400,
  webhook_signature_invalid: 401,
  webhook_timestamp_invalid: 401,
  webhook_replayed: 409,
  webhook_payload_unmapped: 422,
  // Definitions, versions and their lineage.
  workflow_missing_tool: 422,
  workflow_definition_invalid: 422,
  schedule_invalid: 422,
  harness_unknown: 422,
  lwir_invalid: 422,
  canonical_json_rejected: 400,
  schema_live_validator: 400,
  schema_unsupported: 400,
  definition_not_approved: 403,
  definition_projection_missing: 409,
  definition_projection_mismatch: 409,
  definition_not_live: 409,
  stored_artifact_tampered: 400,
  // The registry's call graph (defineWorkflow({ workflows })), refused when it is built.
  workflow_call_cycle: 422,
  workflow_callee_missing: 422,
  // Configuration of the deployment.
  secrets_key_missing: 409,
  secrets_key_invalid: 409,
  secret_missing: 409,
  secret_undecryptable: 409,
  model_unavailable: 409,
  model_config_invalid: 422,
  sandbox_config_invalid: 400,
  trigger_tenant_invalid: 409,
  insecure_configuration: 503,
  // D1 has no table the Worker reads: the migrations were not applied to this database.
  database_not_migrated: 503,
  // A start sent to its run object whose answer was lost (a reset, a dropped connection): the run
  // may exist; the same start again (its run id or Idempotency-Key) answers it.
  run_start_unconfirmed: 503,
  // Raised while a run is driven; they end the run (its cause code), not a request. Should one
  // reach HTTP it answers as it always has: 400 for a named error.
  capability_drift: 400,
  non_deterministic_replay: 400,
  model_timeout: 400,
  model_protocol_error: 400,
  run_terminated: 400,
  version_id_collision: 400,
  container_sandbox_failed: 400,
  // Internal: never meant for HTTP (a run failure, a step attempt, a memory store refusal travel
  // inside the engine). One reaching the API is a bug and is answered as `internal_error`.
  run_failed: 500,
  step_attempt_failed: 500,
  memory_change_invalid: 500,
  internal_error: 500,
  // A stored row of a run's event log does not parse as its event (a data fault on the server):
  // answered with its own code and the row's seq, so the operator can find it; not a bug in a request.
  event_log_corrupt: 500,
  // Restarts and forks (POST /v1/runs/:runId/restart, /fork): refused, nothing stored.
  run_active: 409,
  run_not_forkable: 409,
  restart_step_unknown: 422,
  restart_no_failed_step: 422,
  fork_edit_invalid: 422,
  // Signals sent to a run (POST /v1/runs/:runId/signals): refused, nothing stored.
  signal_unknown: 422,
  signal_payload_invalid: 422,
  signal_id_conflict: 409,
  // Deletion, retention and bulk actions (docs/runs.md, "Retention and deletion", "Bulk actions").
  run_deleted: 410,
  bulk_job_not_found: 404,
  bulk_action_unknown: 422,
  bulk_action_unsupported: 422,
  bulk_filter_invalid: 422,
  bulk_filter_unsupported: 422,
} as const satisfies Record<string, ContentfulStatusCode>;

/** A code of the table. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes answered with a second status at one route, kept because clients already depend on it:
 * `definition_not_approved` is 409 when pinning a version (`POST /v1/definitions/:hash/pin`: the
 * request conflicts with the tenant's approvals, it is not a refused start), and `lwir_invalid` is
 * 400 at `POST /v1/lwir/runs` (the request body itself is the bad document). Only these may be
 * passed as an explicit status to `ApiError`, and only the status listed here.
 */
export const ALSO_ANSWERED_WITH = {
  definition_not_approved: 409,
  lwir_invalid: 400,
} as const satisfies Partial<Record<ErrorCode, ContentfulStatusCode>>;

/** The status a code is answered with by default. */
export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return ERROR_STATUS[code];
}

/** Whether a string is a code of the table (named errors from elsewhere are checked with it). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

/** 500s answered as themselves: a named fault of stored data, not a bug to hide behind `internal_error`. */
const NAMED_500: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["event_log_corrupt"]);

/** Internal codes: a bug when they reach HTTP. */
export function isInternal(code: ErrorCode): boolean {
  return ERROR_STATUS[code] === 500 && !NAMED_500.has(code);
}
