import { describe, expect, it } from "vitest";
import {
  cycleFailureOf,
  failureSummary,
  replannable,
  SUCCEEDED_STEPS_CAP,
  stepIdOf,
  withSucceededSteps,
} from "../../src/engine/cycle-failure.ts";
import { RunFailure } from "../../src/engine/run-failure.ts";
import { secretRedactor } from "../../src/harness/redact-secrets.ts";
import type { RunCauseCode, RunEvent } from "../../src/ports/run-events.ts";

// The table in docs/runs.md ("The outer loop"): which failures a new plan may avoid.

const step = (code: string) => new RunFailure("step_failed", `Step c1/a failed after 1 attempt: ${code}`, { stepPath: "c1/a", code });

describe("replannable", () => {
  it("re-plans a failed step, an output schema miss and a planner without a valid plan", () => {
    for (const code of [
      "tool_failed",
      "tool_input_invalid",
      "tool_output_invalid",
      "output_invalid",
      "code_threw",
      "fixer_exhausted",
      "loop_exhausted",
    ])
      expect(replannable(step(code)), code).toBe(true);
    for (const cause of ["output_schema_error", "planner_validation_exhausted", "planner_no_lwir"] as const)
      expect(replannable(new RunFailure(cause, "x")), cause).toBe(true);
    expect(replannable(new RunFailure("step_failed", "no details"))).toBe(true);
  });

  it("ends the run for a step's timeout, a person's answer, a provider or the run's integrity", () => {
    for (const code of [
      "step_timeout",
      "code_timeout",
      "model_timeout",
      "approval_denied",
      "approval_timeout",
      "approval_args_mismatch",
      "model_error",
      "model_unavailable",
      "code_runner_unavailable",
      "capability_drift",
      "non_deterministic_replay",
      "code_integrity",
    ])
      expect(replannable(step(code)), code).toBe(false);
  });

  it("ends the run for every other cause: timeouts, quotas, drift, providers, secrets, approval", () => {
    const causes: RunCauseCode[] = [
      "run_timeout",
      "model_tokens_exceeded",
      "event_log_too_large",
      "lwir_too_large",
      "capability_drift",
      "non_deterministic_replay",
      "code_integrity",
      "model_error",
      "model_unavailable",
      "model_timeout",
      "secrets_unavailable",
      "definition_not_approved",
      "outer_loop_exhausted",
      "supervise_failed",
      "input_schema_error",
      "internal_error",
    ];
    for (const cause of causes) expect(replannable(new RunFailure(cause, "x")), cause).toBe(false);
  });
});

describe("the recorded failure", () => {
  it("names the step by id and path and redacts the message and details", () => {
    const redact = secretRedactor({ CRM_TOKEN: "sk-live-123456" });
    const failure = new RunFailure("step_failed", "Step o2/c1/lookup@3[k] failed: token sk-live-123456 refused", {
      stepPath: "o2/c1/lookup@3[k]",
      code: "tool_failed",
    });
    const record = cycleFailureOf(failure, redact);
    expect(record).toEqual({
      causeCode: "step_failed",
      message: "Step o2/c1/lookup@3[k] failed: token [redacted:CRM_TOKEN] refused",
      stepId: "lookup",
      stepPath: "o2/c1/lookup@3[k]",
      details: { stepPath: "o2/c1/lookup@3[k]", code: "tool_failed" },
    });
    expect(failureSummary(1, record)).toBe(
      'Cycle 1 failed (step_failed) at step "lookup": Step o2/c1/lookup@3[k] failed: token [redacted:CRM_TOKEN] refused',
    );
    expect(failureSummary(2, cycleFailureOf(new RunFailure("planner_no_lwir", "no plan"), undefined))).toBe(
      "Cycle 2 failed (planner_no_lwir): no plan",
    );
  });

  it("reads step ids out of every path shape", () => {
    expect(stepIdOf("c1/a")).toBe("a");
    expect(stepIdOf("c12/notify@3[7]")).toBe("notify");
    expect(stepIdOf("o4/c1/score")).toBe("score");
    expect(stepIdOf("odd")).toBe("odd");
  });
});

describe("withSucceededSteps", () => {
  const succeeded = (stepPath: string) =>
    ({ type: "StepSucceeded", payload: { stepPath, output: { ok: stepPath } } }) as unknown as RunEvent;

  it("lists at most SUCCEEDED_STEPS_CAP steps of the failed cycle and counts the ones it leaves out", () => {
    const events = [succeeded("c0/old"), ...Array.from({ length: SUCCEEDED_STEPS_CAP + 2 }, (_, i) => succeeded(`c1/s${i}`))];
    const record = withSucceededSteps({ causeCode: "step_failed", message: "x" }, events, 1, undefined);
    expect(record.succeededSteps).toHaveLength(SUCCEEDED_STEPS_CAP);
    expect(record.succeededSteps?.[0]?.stepPath).toBe("c1/s0");
    expect(record.succeededStepsOmitted).toBe(2);
  });

  it("says nothing of omitted steps when the list is whole", () => {
    const record = withSucceededSteps({ causeCode: "step_failed", message: "x" }, [succeeded("c1/a")], 1, undefined);
    expect(record.succeededSteps).toHaveLength(1);
    expect("succeededStepsOmitted" in record).toBe(false);
  });
});
