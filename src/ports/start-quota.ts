/** A tenant's start limits (from Worker vars; see src/engine/runs/start-limits.ts). */
export type StartLimits = { readonly startsPerMinute: number; readonly concurrentRuns: number };

/** The limit a refused start hit. */
export type StartLimitName = "starts_per_minute" | "concurrent_runs";

/** The answer to one start: a reservation to keep or give back, or the limit that refused it. */
export type StartAdmission =
  | { readonly admitted: true; readonly windowStart: number }
  | { readonly admitted: false; readonly limit: StartLimitName; readonly max: number; readonly retryAfterSeconds: number };

/** The fixed window the starts-per-minute counter uses. */
export const START_WINDOW_MS = 60_000;

/**
 * Per-tenant admission of new runs. `admit` reserves one start in the tenant's current window and
 * one concurrent-run slot atomically (concurrent callers can't both take the last one). The start
 * then either created its run, which is now in the run index (`settle`: the slot is counted there
 * from now on), or created none (a repeat of an existing run id, or a failure: `release` gives
 * both back).
 */
export interface StartQuota {
  admit(tenant: string, now: number, limits: StartLimits): Promise<StartAdmission>;
  settle(tenant: string, windowStart: number): Promise<void>;
  release(tenant: string, windowStart: number): Promise<void>;
}
