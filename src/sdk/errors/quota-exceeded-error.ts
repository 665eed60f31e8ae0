import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/** The limit a refused start hit (the `StartQuota` port's names). */
export type QuotaLimitName = "starts_per_minute" | "concurrent_runs";

/**
 * 429 `quota_exceeded`: a tenant's start limit refused a new run; nothing was created. Carries the
 * `Retry-After` seconds (the API sends the header) and a finding naming the limit.
 */
export class QuotaExceededError extends LittleError {
  readonly code = "quota_exceeded";
  readonly retryAfterSeconds: number;
  readonly limit: QuotaLimitName;
  readonly findings: readonly Finding[];
  constructor(limit: QuotaLimitName, max: number, retryAfterSeconds: number) {
    const what = limit === "starts_per_minute" ? `${max} run starts per minute` : `${max} concurrent runs`;
    super(`This tenant's quota of ${what} is used up; retry after ${retryAfterSeconds} s`);
    this.name = "QuotaExceededError";
    this.limit = limit;
    this.retryAfterSeconds = retryAfterSeconds;
    this.findings = [{ severity: "error", code: `quota.${limit}`, path: "$", message: `limit ${max}` }];
  }
}
