import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/api-error.ts";
import { QuotaExceededError } from "../../src/api/quota-exceeded.ts";
import { ModelUnavailableError } from "../../src/sdk/errors/model-unavailable-error.ts";
import { backoffSeconds, decideFailure, MAX_DELAY_SECONDS } from "../../src/triggers/failure-policy.ts";

describe("decideFailure: dead-letter what no retry can fix, retry the rest", () => {
  it("refusals of the message itself are dead-lettered with their code (and findings)", () => {
    const findings = [{ severity: "error" as const, code: "input.invalid", path: "$.ticketId", message: "expected string" }];
    expect(decideFailure(new ApiError("input_schema_error", "bad input", { findings }), 1)).toEqual({
      action: "dead-letter",
      cause: "input_schema_error",
      message: "bad input",
      findings,
    });
    expect(decideFailure(new ApiError("workflow_not_found", "no"), 1)).toMatchObject({
      action: "dead-letter",
      cause: "workflow_not_found",
    });
    expect(decideFailure(new ApiError("idempotency_conflict", "other input"), 1)).toMatchObject({ action: "dead-letter" });
  });

  it("a quota refusal waits its Retry-After", () => {
    expect(decideFailure(new QuotaExceededError("starts_per_minute", 600, 37), 1)).toMatchObject({
      action: "retry",
      cause: "quota_exceeded",
      delaySeconds: 37,
    });
  });

  it("a tenant at its concurrent-runs limit (Retry-After 5 s) is retried with the backoff, so retries last hours, not seconds", () => {
    const full = () => new QuotaExceededError("concurrent_runs", 200, 5);
    const decisions = Array.from({ length: 20 }, (_, i) => decideFailure(full(), i + 1));
    expect(decisions.every((d) => d.action === "retry" && d.cause === "quota_exceeded")).toBe(true);
    const delays = decisions.map((d) => (d.action === "retry" ? d.delaySeconds : 0));
    expect(delays.slice(0, 4)).toEqual([10, 20, 40, 80]);
    // Twenty retries of a full tenant span more than two hours (at 5 s each they spent 100 s).
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThan(2 * 3600);
  });

  it("configuration refusals an operator can lift, and unnamed errors, retry with backoff", () => {
    expect(decideFailure(new ModelUnavailableError("openai", "gpt-5", "OPENAI_API_KEY is not set", ["OPENAI_API_KEY"]), 2)).toMatchObject({
      action: "retry",
      cause: "model_unavailable",
      delaySeconds: 20,
    });
    expect(decideFailure(new ApiError("definition_not_approved", "approve it"), 1)).toMatchObject({ action: "retry" });
    expect(decideFailure(new Error("D1_ERROR: database is locked"), 1)).toMatchObject({
      action: "retry",
      cause: "transient_error",
      delaySeconds: 10,
    });
  });

  it("backoff doubles per attempt up to its ceiling", () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([10, 20, 40, 80]);
    expect(backoffSeconds(30)).toBe(MAX_DELAY_SECONDS);
  });
});
