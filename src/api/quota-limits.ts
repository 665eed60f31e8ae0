import type { StartLimits } from "../ports/start-quota.ts";

/** The Worker vars that set per-tenant quotas; each a positive whole number. */
export type QuotaVars = {
  LITTLE_QUOTA_STARTS_PER_MINUTE?: string;
  LITTLE_QUOTA_CONCURRENT_RUNS?: string;
  LITTLE_QUOTA_LWIR_BYTES?: string;
};

/**
 * Defaults: high enough that no interactive or CI use meets them, low enough that one tenant can't
 * start unbounded work. The LWIR limit stays well below D1's 2 MB row limit (a version row holds
 * the canonical LWIR), so an oversized document is refused by name instead of failing in D1.
 */
export const DEFAULT_QUOTAS = {
  startsPerMinute: 600,
  concurrentRuns: 200,
  lwirBytes: 1024 * 1024,
} as const;

/** The start limits in force: each var when it is a positive whole number, else its default. */
export function startLimits(vars: QuotaVars): StartLimits {
  return {
    startsPerMinute: positive(vars.LITTLE_QUOTA_STARTS_PER_MINUTE) ?? DEFAULT_QUOTAS.startsPerMinute,
    concurrentRuns: positive(vars.LITTLE_QUOTA_CONCURRENT_RUNS) ?? DEFAULT_QUOTAS.concurrentRuns,
  };
}

/** The largest canonical LWIR a run may register, in UTF-8 bytes. */
export function lwirByteLimit(vars: QuotaVars): number {
  return positive(vars.LITTLE_QUOTA_LWIR_BYTES) ?? DEFAULT_QUOTAS.lwirBytes;
}

/** A malformed value falls back to the default: a typo must not turn a quota off. */
function positive(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
