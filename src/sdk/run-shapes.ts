/**
 * @module The two shapes a run may take beyond one plan: an outer loop (re-plan under a supervisor)
 * and an `onTrigger` section (one locked body per trigger), with their definition checks.
 */
import type { Fail } from "./check-runtime-config.ts";

/**
 * What `supervise` sees after a cycle of an outer loop: the cycle's output, or, for a cycle that
 * failed in a way a new plan may avoid (docs/runs.md lists the causes), `status: "failed"`,
 * `output: null` and the failure (redacted). The last cycle's failure ends the run unsupervised.
 */
export type SuperviseInput = {
  readonly cycleNumber: number;
  readonly maxCycles: number;
  readonly input: unknown;
  readonly status: "completed" | "failed";
  readonly output: unknown;
  readonly failure?: { readonly causeCode: string; readonly message: string; readonly stepId?: string };
};

/**
 * `accept` ends the run with this cycle's outcome: its output, or for a failed cycle its failure
 * (stop early); `replan` starts another planner cycle, told of this one.
 */
export type SuperviseDecision = { readonly decision: "accept" } | { readonly decision: "replan"; readonly summary: string };

/**
 * An outer loop: after each cycle's run, `supervise` decides to accept its output or re-plan with
 * the prior cycles as context. The decision is journaled, so replay never calls it again.
 */
export type OuterLoopConfig = {
  readonly maxCycles: number;
  readonly supervise: (cycle: SuperviseInput) => SuperviseDecision | Promise<SuperviseDecision>;
};

/** What a section does when one occurrence's body fails: end the run (default) or re-arm for the next. */
export type BodyFailurePolicy = "end" | "continue";

/**
 * An `onTrigger` section: the run stays `waiting` between occurrences, each trigger
 * (`POST /v1/runs/:runId/triggers`, or a webhook addressed to the run) runs the locked body once
 * with its payload as input. `onBodyFailure` decides whether a failed occurrence ends the run.
 */
export type OnTriggerConfig = {
  readonly onBodyFailure?: BodyFailurePolicy;
  /** Occurrences after which the section closes and the run completes (default: until cancelled). */
  readonly maxOccurrences?: number;
  /** Ms one occurrence may run from its start; past it, it fails (`occurrence_timeout`) under `onBodyFailure`. */
  readonly occurrenceTimeoutMs?: number;
};

/** Checks `onTrigger` (and that it is not combined with `outerLoop`). */
export function checkSection(section: OnTriggerConfig | undefined, withOuterLoop: boolean, fail: Fail): void {
  if (section === undefined) return;
  if (typeof section !== "object" || section === null) {
    fail("$.onTrigger", "definition.invalid_section", "onTrigger is an object: { onBodyFailure?, maxOccurrences? }");
    return;
  }
  if (section.onBodyFailure !== undefined && section.onBodyFailure !== "end" && section.onBodyFailure !== "continue")
    fail("$.onTrigger.onBodyFailure", "definition.invalid_section", 'onBodyFailure is "end" or "continue"');
  if (section.maxOccurrences !== undefined && !(Number.isInteger(section.maxOccurrences) && section.maxOccurrences >= 1))
    fail("$.onTrigger.maxOccurrences", "definition.invalid_section", "maxOccurrences is a positive integer");
  const ms = section.occurrenceTimeoutMs;
  if (ms !== undefined && !(Number.isInteger(ms) && ms >= 1 && ms <= 30 * 86_400_000))
    fail("$.onTrigger.occurrenceTimeoutMs", "definition.invalid_section", "occurrenceTimeoutMs: integer ms, 1 to 30 days");
  if (withOuterLoop)
    fail("$.onTrigger", "definition.invalid_section", "a section's body is one plan: onTrigger and outerLoop cannot be combined");
}

/** Checks `outerLoop`: its cycle bound and its supervisor. */
export function checkOuterLoop(outerLoop: OuterLoopConfig | undefined, fail: Fail): void {
  if (outerLoop === undefined) return;
  if (!Number.isInteger(outerLoop.maxCycles) || outerLoop.maxCycles < 1 || outerLoop.maxCycles > 10) {
    fail("$.outerLoop.maxCycles", "definition.invalid_outer_loop", "outerLoop.maxCycles is an integer from 1 to 10");
  }
  if (typeof outerLoop.supervise !== "function")
    fail("$.outerLoop.supervise", "definition.invalid_outer_loop", "outerLoop.supervise must be a function");
}
