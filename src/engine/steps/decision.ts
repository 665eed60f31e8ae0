import { renderTemplate, truthy } from "../../lwir/evaluate-template.ts";
import type { DecisionStep, LwirStep } from "../../lwir/types.ts";
import type { StepAttempt } from "./step-context.ts";

/** A decision's output: the step it chose. */
export type DecisionOutput = { readonly chosen: string };

/** The first case whose `when` is truthy wins; else the default. Pure, so replay gives the same choice. */
export function decide(step: DecisionStep, a: StepAttempt): DecisionOutput {
  const scope = { input: a.input, steps: a.outputs, item: a.item };
  for (const c of step.with.cases) {
    if (truthy(renderTemplate(c.when, scope))) return { chosen: c.step };
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
