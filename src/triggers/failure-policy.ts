import type { CanonicalJsonError } from "../sdk/errors/canonical-json-error.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { QuotaExceededError } from "../sdk/errors/quota-exceeded-error.ts";
import type { RunDeletedError } from "../sdk/errors/run-deleted-error.ts";
import type { RunTagsInvalidError } from "../sdk/errors/run-tags-invalid-error.ts";
import type { StartRefusalCode } from "../sdk/errors/start-refused-error.ts";
import type { WorkflowInputValidationError } from "../sdk/errors/workflow-input-validation-error.ts";
import type { Finding } from "../sdk/finding.ts";

/**
 * What to do with a queue message whose start failed: dead-letter it at once (the message itself
 * is wrong, so no retry can help) or retry it later (the Worker or its configuration is wrong for
 * now: on its last attempt the consumer dead-letters it with this cause).
 */
export type FailureDecision =
  | { readonly action: "dead-letter"; readonly cause: string; readonly message: string; readonly findings?: readonly Finding[] }
  | { readonly action: "retry"; readonly cause: string; readonly message: string; readonly delaySeconds: number };

/**
 * The refusals the message itself causes, so that no retry of the same body can ever start it: it
 * names no registered workflow, its input fails the schema or is no canonical JSON or too large,
 * its key or run id is taken by another start, or it addresses a run that has ended. Everything
 * else (configuration, approvals, definitions, quotas, D1) is retried: an operator can fix it
 * without touching the message. An allow-list, so a new error code retries until classified here.
 */
export const MESSAGE_CAUSED: ReadonlySet<string> = new Set<MessageCausedCode>([
  "input_schema_error",
  "workflow_not_found",
  "idempotency_conflict",
  "run_id_conflict",
  "payload_too_large",
  "canonical_json_rejected",
  "anchor_workflow_mismatch",
  "run_ended",
  // The key or run id names a deleted run: it never starts again.
  "run_deleted",
  "run_tags_invalid",
]);

/** Codes of named errors a start throws (each in the API's status table; the failure-policy test checks it). */
type MessageCausedCode =
  | StartRefusalCode
  | WorkflowInputValidationError["code"]
  | CanonicalJsonError["code"]
  | RunDeletedError["code"]
  | RunTagsInvalidError["code"]
  | "payload_too_large";

/** The first retry waits this long; each next one twice as long, up to {@link MAX_DELAY_SECONDS}. */
export const BASE_DELAY_SECONDS = 10;
export const MAX_DELAY_SECONDS = 15 * 60;

/** The backoff before attempt `attempts + 1` (`message.attempts` counts from 1). */
export function backoffSeconds(attempts: number): number {
  return Math.min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sorts a failed start: a refusal the message causes ({@link MESSAGE_CAUSED}: `input_schema_error`,
 * `workflow_not_found`, `idempotency_conflict`, …) is dead-lettered with its code as the cause; a
 * quota refusal waits its `Retry-After` or the backoff, whichever is longer; every other code and
 * anything unnamed (D1, Durable Object or network errors) is retried with backoff.
 */
export function decideFailure(error: unknown, attempts: number): FailureDecision {
  const message = error instanceof Error ? error.message : String(error);
  // Never sooner than the backoff: the concurrent-runs limit always says 5 s, and a queue retrying a
  // full tenant every 5 s would spend its retries in half a minute while the runs in flight go on.
  if (error instanceof QuotaExceededError)
    return { action: "retry", cause: error.code, message, delaySeconds: Math.max(error.retryAfterSeconds, backoffSeconds(attempts)) };
  if (LittleError.is(error) && MESSAGE_CAUSED.has(error.code)) {
    const findings = (error as { findings?: readonly Finding[] }).findings;
    return { action: "dead-letter", cause: error.code, message, ...(findings ? { findings } : {}) };
  }
  const cause = LittleError.is(error) ? error.code : "transient_error";
  return { action: "retry", cause, message, delaySeconds: backoffSeconds(attempts) };
}
