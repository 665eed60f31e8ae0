import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/api-error.ts";
import { ERROR_STATUS, type ErrorCode } from "../../src/api/error-status.ts";
import { ModelUnavailableError } from "../../src/sdk/errors/model-unavailable-error.ts";
import { QuotaExceededError } from "../../src/sdk/errors/quota-exceeded-error.ts";
import { backoffSeconds, decideFailure, MAX_DELAY_SECONDS, MESSAGE_CAUSED } from "../../src/triggers/failure-policy.ts";
import { DEFAULT_QUEUE_MAX_RETRIES } from "../../src/triggers/queue-max-retries.ts";

/**
 * Every code of the status table, classified by hand: "dead-letter" only when the message itself
 * causes it (no retry of the same body can start it), "retry" when an operator or time can fix it.
 * A new code fails the typecheck and this test until someone decides which it is.
 */
const CLASSIFIED = {
  invalid_json: "retry",
  invalid_request: "retry",
  invalid_cursor: "retry",
  event_type_unknown: "retry",
  payload_too_large: "dead-letter",
  lwir_too_large: "retry",
  unsupported_media_type: "retry",
  unauthorized: "retry",
  token_expired: "retry",
  token_revoked: "retry",
  token_expiry_invalid: "retry",
  tenant_required: "retry",
  tenant_forbidden: "retry",
  insufficient_scope: "retry",
  not_found: "retry",
  run_not_found: "retry",
  workflow_not_found: "dead-letter",
  version_not_found: "retry",
  definition_not_found: "retry",
  definition_approval_not_found: "retry",
  secret_not_found: "retry",
  token_not_found: "retry",
  approval_not_found: "retry",
  webhook_not_configured: "retry",
  workflow_not_registered: "retry",
  input_schema_error: "dead-letter",
  run_tags_invalid: "dead-letter",
  idempotency_conflict: "dead-letter",
  run_id_conflict: "dead-letter",
  // A queue message carries no caller run id: its id is derived (never reserved for it).
  run_id_reserved: "retry",
  webhook_id_conflict: "retry",
  anchor_workflow_mismatch: "dead-letter",
  run_ended: "dead-letter",
  run_not_a_section: "retry",
  section_not_waiting: "retry",
  section_stale: "retry",
  section_not_live: "retry",
  quota_exceeded: "retry",
  approval_args_mismatch: "retry",
  approval_already_decided: "retry",
  approval_expired: "retry",
  webhook_headers_missing: "retry",
  webhook_body_invalid_encoding: "retry",
  webhook_signature_invalid: "retry",
  webhook_timestamp_invalid: "retry",
  webhook_replayed: "retry",
  webhook_payload_unmapped: "retry",
  workflow_missing_tool: "retry",
  workflow_call_cycle: "retry",
  workflow_callee_missing: "retry",
  workflow_definition_invalid: "retry",
  schedule_invalid: "retry",
  harness_unknown: "retry",
  lwir_invalid: "retry",
  canonical_json_rejected: "dead-letter",
  schema_live_validator: "retry",
  schema_unsupported: "retry",
  definition_not_approved: "retry",
  definition_projection_missing: "retry",
  definition_projection_mismatch: "retry",
  definition_not_live: "retry",
  stored_artifact_tampered: "retry",
  secrets_key_missing: "retry",
  secrets_key_invalid: "retry",
  secret_missing: "retry",
  secret_undecryptable: "retry",
  model_unavailable: "retry",
  model_config_invalid: "retry",
  sandbox_config_invalid: "retry",
  trigger_tenant_invalid: "retry",
  insecure_configuration: "retry",
  database_not_migrated: "retry",
  run_start_unconfirmed: "retry",
  capability_drift: "retry",
  non_deterministic_replay: "retry",
  model_timeout: "retry",
  model_protocol_error: "retry",
  run_terminated: "retry",
  version_id_collision: "retry",
  container_sandbox_failed: "retry",
  run_failed: "retry",
  step_attempt_failed: "retry",
  memory_change_invalid: "retry",
  internal_error: "retry",
  // A repeat start whose run's log has a bad row: the log needs repair, the message is not at fault.
  event_log_corrupt: "retry",
  // Signals are not sent by queue messages (a start is): the policy never sees them.
  signal_unknown: "retry",
  signal_payload_invalid: "retry",
  signal_id_conflict: "retry",
  // Restarts and forks are not started by queue messages; a queue never meets these.
  run_active: "retry",
  run_not_forkable: "retry",
  restart_step_unknown: "retry",
  restart_no_failed_step: "retry",
  fork_edit_invalid: "retry",
  // A queue message whose key names a deleted run never starts it; the other codes are not a start's.
  run_deleted: "dead-letter",
  bulk_job_not_found: "retry",
  bulk_action_unknown: "retry",
  bulk_action_unsupported: "retry",
  bulk_filter_invalid: "retry",
  bulk_filter_unsupported: "retry",
  // Refusals between run objects (a guarded end, a parent and its children): never a start's.
  run_not_under_approval: "retry",
  child_not_found: "retry",
  child_runs_unsupported: "retry",
} as const satisfies Record<ErrorCode, "dead-letter" | "retry">;

describe("decideFailure: dead-letter what no retry can fix, retry the rest", () => {
  it("refusals of the message itself are dead-lettered with their code (and findings)", () => {
    const findings = [{ severity: "error" as const, code: "input.invalid", path: "$.ticketId", message: "expected string" }];
    expect(decideFailure(new ApiError("input_schema_error", "bad input", { findings }), 1)).toEqual({
      action: "dead-letter",
      cause: "input_schema_error",
      message: "bad input",
      findings,
    });
    expect(decideFailure(new ApiError("workflow_not_found", "no"), 1)).toMatchObject({
      action: "dead-letter",
      cause: "workflow_not_found",
    });
    expect(decideFailure(new ApiError("idempotency_conflict", "other input"), 1)).toMatchObject({ action: "dead-letter" });
  });

  it("every error code is classified, and only the codes the message causes are dead-lettered", () => {
    expect(Object.keys(CLASSIFIED).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    for (const code of MESSAGE_CAUSED) expect(ERROR_STATUS).toHaveProperty(code);
    const decided = Object.fromEntries(
      Object.keys(ERROR_STATUS).map((code) => [code, decideFailure(new ApiError(code as ErrorCode, "refused"), 1).action]),
    );
    expect(decided).toEqual(CLASSIFIED);
  });

  it("refusals an operator fixes without touching the message are retried, not dead-lettered at once", () => {
    for (const code of [
      "definition_projection_mismatch",
      "definition_not_live",
      "schema_unsupported",
      "capability_drift",
      "harness_unknown",
    ] as const)
      expect(decideFailure(new ApiError(code, "fix the deployment"), 3)).toMatchObject({ action: "retry", cause: code, delaySeconds: 40 });
  });

  it("a quota refusal waits its Retry-After", () => {
    expect(decideFailure(new QuotaExceededError("starts_per_minute", 600, 37), 1)).toMatchObject({
      action: "retry",
      cause: "quota_exceeded",
      delaySeconds: 37,
    });
  });

  it("a tenant at its concurrent-runs limit (Retry-After 5 s) is retried with the backoff, so retries last hours, not seconds", () => {
    const full = () => new QuotaExceededError("concurrent_runs", 200, 5);
    const decisions = Array.from({ length: DEFAULT_QUEUE_MAX_RETRIES }, (_, i) => decideFailure(full(), i + 1));
    expect(decisions.every((d) => d.action === "retry" && d.cause === "quota_exceeded")).toBe(true);
    const delays = decisions.map((d) => (d.action === "retry" ? d.delaySeconds : 0));
    expect(delays.slice(0, 4)).toEqual([10, 20, 40, 80]);
    // The retries wrangler.toml allows a full tenant span more than two hours (at 5 s each they spent 100 s).
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThan(2 * 3600);
  });

  it("configuration refusals an operator can lift, and unnamed errors, retry with backoff", () => {
    expect(decideFailure(new ModelUnavailableError("openai", "gpt-5", "OPENAI_API_KEY is not set", ["OPENAI_API_KEY"]), 2)).toMatchObject({
      action: "retry",
      cause: "model_unavailable",
      delaySeconds: 20,
    });
    expect(decideFailure(new ApiError("definition_not_approved", "approve it"), 1)).toMatchObject({ action: "retry" });
    expect(decideFailure(new Error("D1_ERROR: database is locked"), 1)).toMatchObject({
      action: "retry",
      cause: "transient_error",
      delaySeconds: 10,
    });
  });

  it("backoff doubles per attempt up to its ceiling", () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([10, 20, 40, 80]);
    expect(backoffSeconds(30)).toBe(MAX_DELAY_SECONDS);
  });
});
