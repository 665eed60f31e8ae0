import type { Redactor } from "../harness/redact-secrets.ts";
import { encodeTagged } from "../identity/tagged-json.ts";
import type { CycleFailure, RunCauseCode, RunEvent, SucceededStep } from "../ports/run-events.ts";
import type { RunFailure } from "./run-failure.ts";

/**
 * Causes of a failed outer-loop cycle that a new plan may avoid: a step of the plan failed, the
 * plan's output missed the output schema, or the planner never produced a valid plan. Everything
 * else ends the run at once (docs/runs.md, "The outer loop"): a cancel, a timeout, a quota, drift,
 * a provider failing, a denied approval.
 */
export const REPLANNED_CAUSES: ReadonlySet<RunCauseCode> = new Set<RunCauseCode>([
  "step_failed",
  "output_schema_error",
  "planner_validation_exhausted",
  "planner_no_lwir",
]);

/**
 * Step error codes that make a `step_failed` end the run although the cause re-plans: a person's
 * answer (or its absence), a clock, a provider, the run's integrity or its quotas. None of them is
 * the plan's fault, so another plan would only meet them again (or ask the person again).
 */
export const STEP_ERRORS_THAT_END_THE_RUN: ReadonlySet<string> = new Set([
  "approval_denied",
  "approval_timeout",
  "approval_args_mismatch",
  "step_timeout",
  "code_timeout",
  "model_timeout",
  "model_protocol_error",
  "run_timeout",
  "model_error",
  "model_unavailable",
  "code_runner_unavailable",
  "capability_drift",
  "non_deterministic_replay",
  "code_integrity",
  "model_tokens_exceeded",
  "event_log_too_large",
]);

/** `step_failed` details, as run-step.ts and fan-out.ts write them. */
function stepDetails(details: unknown): { stepPath?: string; code?: string } {
  if (details === null || typeof details !== "object") return {};
  const { stepPath, code } = details as { stepPath?: unknown; code?: unknown };
  return {
    ...(typeof stepPath === "string" ? { stepPath } : {}),
    ...(typeof code === "string" ? { code } : {}),
  };
}

/** Whether a new plan may avoid this failure (the cycle budget and the run's signal are the caller's). */
export function replannable(failure: RunFailure): boolean {
  if (!REPLANNED_CAUSES.has(failure.causeCode)) return false;
  const code = stepDetails(failure.details).code;
  return !(failure.causeCode === "step_failed" && code !== undefined && STEP_ERRORS_THAT_END_THE_RUN.has(code));
}

/**
 * The LWIR step id in a step path: `[o<n>/]c<cycle>/<stepId>[@<visit>][[<branch>]]`
 * (src/inspector/step-path.ts reads the same shape for the page).
 */
export function stepIdOf(stepPath: string): string {
  const match = /^(?:[^/]+\/)?c\d+\/([^@[\]]+)/.exec(stepPath);
  return match?.[1] ?? stepPath;
}

/**
 * The failure as the log records it and the next planner sees it: cause code, failed step, error
 * message and details, each run through the run's secret redactor (the log would redact them on
 * append too; `supervise` gets the same redacted record, so live and replay agree).
 */
export function cycleFailureOf(failure: RunFailure, redact: Redactor | undefined): CycleFailure {
  const { stepPath } = stepDetails(failure.details);
  const record: CycleFailure = {
    causeCode: failure.causeCode,
    message: failure.message,
    ...(stepPath !== undefined ? { stepId: stepIdOf(stepPath), stepPath } : {}),
    ...(failure.details !== undefined ? { details: encodeTagged(failure.details) } : {}),
  };
  return redact ? (redact.value(record) as CycleFailure) : record;
}

/** One line for the next planner when `supervise` gave no summary of its own. */
export function failureSummary(cycle: number, failure: CycleFailure): string {
  const where = failure.stepId !== undefined ? ` at step "${failure.stepId}"` : "";
  return `Cycle ${cycle} failed (${failure.causeCode})${where}: ${failure.message}`;
}

/** Each succeeded step's output goes to the next planner whole up to this many characters of JSON. */
export const SUCCEEDED_OUTPUT_CAP = 2_000;
/** At most this many succeeded steps are listed (a wide fan-out would crowd the prompt). */
export const SUCCEEDED_STEPS_CAP = 50;

/**
 * The failure record with the steps of its cycle that succeeded before it failed, read from the
 * log (so a run resumed before the record was journaled derives the same one), their outputs
 * redacted and capped. Unchanged when none succeeded, so such records keep their bytes.
 */
export function withSucceededSteps(
  record: CycleFailure,
  events: readonly RunEvent[],
  cycle: number,
  redact: Redactor | undefined,
): CycleFailure {
  const prefix = `c${cycle}/`;
  const steps: SucceededStep[] = [];
  let omitted = 0;
  for (const e of events) {
    if (e.type !== "StepSucceeded") continue;
    const { stepPath, output } = e.payload as { stepPath: string; output: unknown };
    if (!stepPath.startsWith(prefix)) continue;
    if (steps.length >= SUCCEEDED_STEPS_CAP) {
      omitted++;
      continue;
    }
    const clean = redact ? redact.value(output) : output;
    const json = JSON.stringify(clean) ?? "null";
    steps.push({
      stepId: stepIdOf(stepPath),
      stepPath,
      ...(json.length <= SUCCEEDED_OUTPUT_CAP ? { output: clean } : { outputPreview: json.slice(0, SUCCEEDED_OUTPUT_CAP) }),
    });
  }
  if (steps.length === 0) return record;
  return { ...record, succeededSteps: steps, ...(omitted > 0 ? { succeededStepsOmitted: omitted } : {}) };
}
