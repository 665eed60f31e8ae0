/** The first retry's wait; each later one doubles it. */
const BASE_BACKOFF_MS = 250;
/** The longest wait honoured from a provider's `Retry-After`. */
export const MAX_BACKOFF_MS = 60_000;
/** Waits up to this long happen inside the slice; longer ones end it and wake the run later. */
export const INLINE_BACKOFF_MAX_MS = 2_000;

/**
 * How long to wait before retrying a model call after `attempt` failed: 250 ms doubling per
 * attempt, or longer when the provider said so (`retry-after-ms`, as OpenAI sends, or
 * `retry-after` in seconds or as an HTTP date), capped at {@link MAX_BACKOFF_MS}. A rate limit
 * that asks for 20 s is not retried after 250 ms only to fail the run.
 */
export function backoffMs(error: unknown, attempt: number, now: number): number {
  const exponential = BASE_BACKOFF_MS * 2 ** (attempt - 1);
  const asked = retryAfterMs(error, now);
  return Math.min(MAX_BACKOFF_MS, Math.max(exponential, asked ?? 0));
}

function retryAfterMs(error: unknown, now: number): number | undefined {
  const headers = (error as { responseHeaders?: unknown } | null)?.responseHeaders;
  if (!headers || typeof headers !== "object") return undefined;
  const header = (name: string): string | undefined => {
    for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name && typeof value === "string") return value;
    return undefined;
  };
  const ms = Number(header("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const after = header("retry-after");
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds * 1_000 : undefined;
  const date = Date.parse(after);
  return Number.isFinite(date) && date > now ? date - now : undefined;
}
