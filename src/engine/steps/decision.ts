import { renderTemplate, truthy } from "../../lwir/evaluate-template.ts";
import type { DecisionStep, LwirStep } from "../../lwir/types.ts";
import { StepAttemptError } from "../step-failure.ts";
import type { StepAttempt } from "./step-context.ts";

/** A decision's output: the step it chose. */
export type DecisionOutput = { readonly chosen: string };

/** The first case whose `when` is truthy wins; else the default. Pure, so replay gives the same choice. */
export function decide(step: DecisionStep, a: StepAttempt): DecisionOutput {
  const scope = { input: a.input, steps: a.outputs, item: a.item };
  // A loop target (upstream of the decision) is eligible while it has visits left.
  const eligible = (target: string) => {
    const targetStep = a.locked.version.lwir.steps.find((s) => s.id === target);
    const isLoop = targetStep !== undefined && !targetStep.needs.includes(step.id);
    return !isLoop || (a.visits?.get(target) ?? 1) < (step.with.maxVisits ?? 1);
  };
  for (const c of step.with.cases) {
    if (truthy(renderTemplate(c.when, scope)) && eligible(c.step)) return { chosen: c.step };
  }
  if (!eligible(step.with.default)) {
    throw new StepAttemptError(
      "loop_exhausted",
      `decision ${a.stepPath}: the loop back to "${step.with.default}" used all ${step.with.maxVisits} visits`,
      false,
    );
  }
  return { chosen: step.with.default };
}

/** Every step a decision can choose. */
export function decisionTargets(step: DecisionStep): string[] {
  return [...step.with.cases.map((c) => c.step), step.with.default];
}

/**
 * Why a step does not run, or null when it should: every step it needs was skipped, or a decision
 * it needs chose another of its targets.
 */
export function skipReason(
  step: LwirStep,
  byId: ReadonlyMap<string, LwirStep>,
  outputs: Readonly<Record<string, unknown>>,
  skipped: ReadonlySet<string>,
): string | null {
  if (step.needs.length > 0 && step.needs.every((n) => skipped.has(n))) return `everything it needs was skipped (${step.needs.join(", ")})`;
  for (const need of step.needs) {
    const upstream = byId.get(need);
    if (upstream?.uses !== "decision" || skipped.has(need) || !decisionTargets(upstream).includes(step.id)) continue;
    const chosen = (outputs[need] as DecisionOutput | undefined)?.chosen;
    if (chosen !== step.id) return `decision "${need}" chose "${chosen}"`;
  }
  return null;
}
