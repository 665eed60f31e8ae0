/**
 * @module Token usage per step of a run, from its model events: each worker or fixer session names
 * its step path when it starts, and each answer's usage counts for that session's step. What a
 * fork's plan estimates a re-run step to cost, and what a comparison shows side by side.
 */
import type { RunEvent } from "../../ports/run-events.ts";

export type StepUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly costUsd: number | null;
};

export const NO_USAGE: StepUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 };

/** Usage by step path (`c1/summarize`); a step that made no model call has no entry. */
export function usageByStepPath(events: readonly RunEvent[]): Map<string, StepUsage> {
  const pathOfSession = new Map<string, string>();
  const out = new Map<string, StepUsage>();
  for (const event of events) {
    if (event.type === "harness.session.started" && event.payload.stepPath !== undefined)
      pathOfSession.set(event.payload.sessionId, event.payload.stepPath);
    if (event.type !== "harness.model.responded") continue;
    const path = pathOfSession.get(event.payload.sessionId);
    if (path === undefined) continue;
    out.set(path, addStepUsage(out.get(path) ?? NO_USAGE, event.payload.usage));
  }
  return out;
}

export function addStepUsage(a: StepUsage, b: StepUsage): StepUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
  };
}
