import type { StartLimits } from "../../ports/start-quota.ts";
import { positive } from "../run-quotas.ts";

/** The Worker vars that set per-tenant start quotas; each a positive whole number. */
export type QuotaVars = {
  LITTLE_QUOTA_STARTS_PER_MINUTE?: string;
  LITTLE_QUOTA_CONCURRENT_RUNS?: string;
  LITTLE_QUOTA_LWIR_BYTES?: string;
  LITTLE_QUOTA_TOKENS_PER_RUN?: string;
  LITTLE_QUOTA_EVENT_LOG_BYTES?: string;
};

/**
 * Start defaults: high enough that no interactive or CI use meets them, low enough that one tenant
 * can't start unbounded work. The per-run quotas' defaults are DEFAULT_RUN_QUOTAS (src/engine).
 */
export const DEFAULT_QUOTAS = { startsPerMinute: 600, concurrentRuns: 200 } as const;

/** The start limits in force: each var when it is a positive whole number, else its default. */
export function startLimits(vars: QuotaVars | Readonly<Record<string, unknown>>): StartLimits {
  return {
    startsPerMinute: positive(vars.LITTLE_QUOTA_STARTS_PER_MINUTE) ?? DEFAULT_QUOTAS.startsPerMinute,
    concurrentRuns: positive(vars.LITTLE_QUOTA_CONCURRENT_RUNS) ?? DEFAULT_QUOTAS.concurrentRuns,
  };
}
