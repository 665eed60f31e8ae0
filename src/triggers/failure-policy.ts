import { isErrorCode, statusOf } from "../api/error-status.ts";
import { QuotaExceededError } from "../api/quota-exceeded.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";

/**
 * What to do with a queue message whose start failed: dead-letter it at once (the message itself
 * is wrong, so no retry can help) or retry it later (the Worker or its configuration is wrong for
 * now: after `max_retries` Cloudflare moves it to the dead-letter queue itself).
 */
export type FailureDecision =
  | { readonly action: "dead-letter"; readonly cause: string; readonly message: string; readonly findings?: readonly Finding[] }
  | { readonly action: "retry"; readonly cause: string; readonly message: string; readonly delaySeconds: number };

/** Refusals an operator can lift without touching the message: a missing key, an approval to give. */
const RETRIED_REFUSALS = new Set<string>([
  "model_unavailable",
  "model_config_invalid",
  "secrets_key_missing",
  "secrets_key_invalid",
  "secret_missing",
  "secret_undecryptable",
  "insecure_configuration",
  "definition_not_approved",
  "definition_projection_missing",
  "workflow_missing_tool",
]);

/** The first retry waits this long; each next one twice as long, up to {@link MAX_DELAY_SECONDS}. */
export const BASE_DELAY_SECONDS = 10;
export const MAX_DELAY_SECONDS = 15 * 60;

/** The backoff before attempt `attempts + 1` (`message.attempts` counts from 1). */
export function backoffSeconds(attempts: number): number {
  return Math.min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sorts a failed start: a refusal of the message (4xx codes: `input_schema_error`,
 * `workflow_not_found`, `idempotency_conflict`, …) is dead-lettered with its code as the cause; a
 * quota refusal waits its `Retry-After` or the backoff, whichever is longer; configuration refusals and anything unnamed (D1, Durable
 * Object or network errors) are retried with backoff.
 */
export function decideFailure(error: unknown, attempts: number): FailureDecision {
  const message = error instanceof Error ? error.message : String(error);
  // Never sooner than the backoff: the concurrent-runs limit always says 5 s, and a queue retrying a
  // full tenant every 5 s would spend its retries in half a minute while the runs in flight go on.
  if (error instanceof QuotaExceededError)
    return { action: "retry", cause: error.code, message, delaySeconds: Math.max(error.retryAfterSeconds, backoffSeconds(attempts)) };
  if (LittleError.is(error) && !RETRIED_REFUSALS.has(error.code) && isErrorCode(error.code)) {
    const status = statusOf(error.code);
    if (status >= 400 && status < 500) {
      const findings = (error as { findings?: readonly Finding[] }).findings;
      return { action: "dead-letter", cause: error.code, message, ...(findings ? { findings } : {}) };
    }
  }
  const cause = LittleError.is(error) ? error.code : "transient_error";
  return { action: "retry", cause, message, delaySeconds: backoffSeconds(attempts) };
}
