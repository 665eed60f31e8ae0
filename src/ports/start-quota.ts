/** A tenant's start limits (from Worker vars; see src/engine/runs/start-limits.ts). */
export type StartLimits = { readonly startsPerMinute: number; readonly concurrentRuns: number };

/** The limit a refused start hit. */
export type StartLimitName = "starts_per_minute" | "concurrent_runs";

/** The window of the starts-per-minute quota (the tenant's throttle gate: src/engine/runs/tenant-gates.ts). */
export const START_WINDOW_MS = 60_000;
