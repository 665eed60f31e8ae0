import type { StartLimitName } from "../ports/start-quota.ts";
import { ApiError } from "./api-error.ts";

/**
 * 429 `quota_exceeded`: a tenant's start limit refused a new run; nothing was created. Carries the
 * `Retry-After` seconds (errors.ts sends the header) and a finding naming the limit.
 */
export class QuotaExceededError extends ApiError<"quota_exceeded"> {
  readonly retryAfterSeconds: number;
  readonly limit: StartLimitName;
  constructor(limit: StartLimitName, max: number, retryAfterSeconds: number) {
    const what = limit === "starts_per_minute" ? `${max} run starts per minute` : `${max} concurrent runs`;
    super("quota_exceeded", `This tenant's quota of ${what} is used up; retry after ${retryAfterSeconds} s`, {
      findings: [{ severity: "error", code: `quota.${limit}`, path: "$", message: `limit ${max}` }],
      // A refusal that passes with time says when to come back.
      headers: { "retry-after": String(retryAfterSeconds) },
    });
    this.name = "QuotaExceededError";
    this.limit = limit;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
