/**
 * The `max_retries` of the runs queue's consumer, as this Worker believes it to be. A Worker cannot
 * read its own queue configuration, so the consumer is told: the var `LITTLE_QUEUE_MAX_RETRIES`
 * must equal the consumer's `max_retries` in wrangler.toml / wrangler.jsonc (the default matches
 * the shipped configs, and `test/triggers/wrangler-crons.node.test.ts` checks they agree). On the
 * last attempt the consumer sends its own dead letter, with the cause, instead of retrying into
 * Cloudflare's dead-letter queue, which would receive the bare body.
 *
 * @example
 * // wrangler.toml: [[queues.consumers]] max_retries = 50, and [vars] LITTLE_QUEUE_MAX_RETRIES = "50"
 */
export const DEFAULT_QUEUE_MAX_RETRIES = 20;

/** Cloudflare's own ceiling for `max_retries`. */
const CLOUDFLARE_MAX_RETRIES = 100;

/** `LITTLE_QUEUE_MAX_RETRIES` read as a whole number 0–100; unset or anything else is the default (logged). */
export function queueMaxRetries(env: Env): number {
  const raw = (env as unknown as Record<string, unknown>).LITTLE_QUEUE_MAX_RETRIES;
  if (raw === undefined || raw === "") return DEFAULT_QUEUE_MAX_RETRIES;
  const value = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (Number.isInteger(value) && value >= 0 && value <= CLOUDFLARE_MAX_RETRIES) return value;
  console.warn(
    JSON.stringify({
      kind: "little.queue-config",
      problem: `LITTLE_QUEUE_MAX_RETRIES ${JSON.stringify(raw)} is not a whole number 0-${CLOUDFLARE_MAX_RETRIES}; using ${DEFAULT_QUEUE_MAX_RETRIES}`,
    }),
  );
  return DEFAULT_QUEUE_MAX_RETRIES;
}

/** Whether this delivery is the last Cloudflare makes: `attempts` counts from 1, and `max_retries` retries follow the first. */
export function isLastAttempt(attempts: number, maxRetries: number): boolean {
  return attempts > maxRetries;
}
