/**
 * @module What a restart or fork will reuse and what it will run, before it starts: the same
 * content-key rule the run applies step by step (reuse-step.ts), simulated over the source's
 * outputs. A step that reads a re-run step is planned as re-run (its input is not known yet; at run
 * time it is reused after all when the re-run step answers exactly as before).
 */
import type { WorkflowDefinitionSnapshot } from "../../identity/definition-snapshot.ts";
import { upstreamSets } from "../../lwir/graph.ts";
import type { LwirStep } from "../../lwir/types.ts";
import { stepContentKey, stepsRead } from "./content-key.ts";
import type { MemoTable } from "./memo-table.ts";
import { addStepUsage, NO_USAGE, type StepUsage } from "./step-usage.ts";

export type PlannedStep = {
  readonly stepId: string;
  readonly uses: LwirStep["uses"];
  readonly action: "reuse" | "rerun";
  /** Why a step re-runs: `restarted` (fromStep or downstream of it), `changed` (its content key), `reads_rerun` (it reads a re-run step's output), `not_in_source` (the source has no result for it). */
  readonly reason?: "restarted" | "changed" | "reads_rerun" | "not_in_source";
  /** The source run's StepSucceeded this step reuses. */
  readonly sourceSeq?: number;
  /** What the source run spent on this step: the estimate for a re-run, the saving for a reuse. */
  readonly sourceUsage: StepUsage;
};

export type ReusePlan = {
  readonly steps: readonly PlannedStep[];
  /** Estimated model usage of the new run: the source's usage of the steps that re-run. */
  readonly estimate: StepUsage;
  /** tool.call steps that would run again: their side effects happen again (listed before anything runs). */
  readonly sideEffects: readonly { readonly stepId: string; readonly tool: string }[];
};

export type PlanInput = {
  readonly steps: readonly LwirStep[];
  /** The new run's definition; null when unknown (nothing is reused). */
  readonly snapshot: WorkflowDefinitionSnapshot | null;
  readonly input: unknown;
  readonly memo: MemoTable;
  readonly rerun: ReadonlySet<string>;
  readonly usageOf: (stepId: string) => StepUsage | undefined;
};

export function planReuse(p: PlanInput): ReusePlan {
  const outputs: Record<string, unknown> = {};
  const actions = new Map<string, PlannedStep>();
  for (const step of topological(p.steps)) {
    const entry = p.memo.entries.get(step.id);
    const sourceUsage = p.usageOf(step.id) ?? NO_USAGE;
    const base = { stepId: step.id, uses: step.uses, sourceUsage };
    const reason = p.rerun.has(step.id)
      ? "restarted"
      : !entry
        ? "not_in_source"
        : stepsRead(step).some((id) => actions.get(id)?.action === "rerun")
          ? "reads_rerun"
          : !p.snapshot || stepContentKey(step, p.snapshot, { input: p.input, steps: outputs }) !== entry.key
            ? "changed"
            : null;
    if (reason === null && entry) {
      outputs[step.id] = entry.output;
      actions.set(step.id, { ...base, action: "reuse", sourceSeq: entry.seq });
    } else actions.set(step.id, { ...base, action: "rerun", ...(reason ? { reason } : {}) });
  }
  const steps = p.steps.map((s) => actions.get(s.id) as PlannedStep);
  const rerun = steps.filter((s) => s.action === "rerun");
  return {
    steps,
    estimate: rerun.reduce((sum, s) => addStepUsage(sum, s.sourceUsage), NO_USAGE),
    sideEffects: p.steps.flatMap((s) =>
      s.uses === "tool.call" && actions.get(s.id)?.action === "rerun" ? [{ stepId: s.id, tool: s.with.tool }] : [],
    ),
  };
}

/** The steps downstream of `stepId` (those whose needs lead to it), with it: what a restart from it runs afresh. */
export function downstreamOf(steps: readonly LwirStep[], stepId: string): Set<string> {
  const upstream = upstreamSets(steps);
  return new Set([stepId, ...steps.filter((s) => upstream.get(s.id)?.has(stepId)).map((s) => s.id)]);
}

/** Steps after the steps they need (a loop's back edge is left to the order given). */
function topological(steps: readonly LwirStep[]): LwirStep[] {
  const done = new Set<string>();
  const out: LwirStep[] = [];
  const byId = new Map(steps.map((s) => [s.id, s]));
  const visit = (step: LwirStep, path: Set<string>) => {
    if (done.has(step.id) || path.has(step.id)) return;
    path.add(step.id);
    for (const need of step.needs) {
      const next = byId.get(need);
      if (next) visit(next, path);
    }
    done.add(step.id);
    out.push(step);
  };
  for (const step of steps) visit(step, new Set());
  return out;
}
