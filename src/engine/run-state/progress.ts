import type { RunState } from "./types.ts";

/** How far a run's steps are (docs/runs.md, "Progress"). */
export type RunProgress = {
  /** Steps of the version the run executes now; null before a plan exists (or for a log from before it was recorded). */
  readonly stepsTotal: number | null;
  /** Of those, the steps that succeeded, failed for good or were skipped. */
  readonly stepsEnded: number;
};

/**
 * The run's progress, from its folded state. The total is the step count of the current cycle's
 * version (`RunStarted.steps`). A step counts as ended once its path in that cycle (and, for a
 * section, in its latest occurrence) has a `StepSucceeded`, a final `StepFailed` or a
 * `StepSkipped`. A fan-out is one step, ended when all its branches are; a loop's steps count once,
 * ended after their first visit; a decision's branch not taken is skipped, so it ends too.
 */
export function progressOf(
  state: Pick<RunState, "plannedSteps" | "cycle" | "section" | "occurrences" | "stepOutputs" | "skipped" | "steps">,
): RunProgress {
  const planned = state.plannedSteps?.cycle === state.cycle ? state.plannedSteps.steps : null;
  if (planned === null) return { stepsTotal: null, stepsEnded: 0 };
  const occurrence = state.section ? state.occurrences.findLast((o) => o.status !== "queued")?.occurrenceId : undefined;
  const prefix = `${occurrence ? `${occurrence}/` : ""}c${state.cycle}/`;
  const ended = new Set<string>();
  const count = (path: string) => {
    // Top-level steps only: a fan-out's branches (`[key]`) and a loop's later visits (`@k`) are not steps of their own.
    if (path.startsWith(prefix) && !/[[@/]/.test(path.slice(prefix.length))) ended.add(path);
  };
  for (const path of state.stepOutputs.keys()) count(path);
  for (const path of state.skipped.keys()) count(path);
  for (const [path, step] of state.steps.entries()) if (step.failed) count(path);
  return { stepsTotal: planned, stepsEnded: Math.min(ended.size, planned) };
}
