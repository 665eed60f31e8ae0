import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { CycleFailure } from "./run-events.ts";

/**
 * The planner protocol: what a model playing planner or fixer sees of the harness, named once for
 * both sides. The harness (`src/harness/planner-*.ts`, `fixer-session.ts`) builds its prompts and
 * tools from these names; the offline model (`src/adapters/models/offline-*.ts`) reads its task
 * back out of the prompt with them, without importing the harness.
 */

/** The shell tool of the planner, the fixer and a worker with skills. */
export const BASH_TOOL = "bash";
/** The planner submits a draft LWIR document with this tool (`{ lwir }`). */
export const SUBMIT_LWIR_TOOL = "submit_lwir";
/** The fixer submits the whole repaired file with this tool. */
export const SUBMIT_FIX_TOOL = "submit_fix";

export const PLAN_TASK_OPEN = "<plan-task>";
export const PLAN_TASK_CLOSE = "</plan-task>";
export const FIX_TASK_OPEN = "<fix-task>";
export const FIX_TASK_CLOSE = "</fix-task>";

/** Prior cycles of an outer loop, as the planner sees them (docs/runs.md, the outer loop). */
export type OuterLoopContext = {
  readonly cycleNumber: number;
  readonly maxCycles: number;
  readonly isFinalCycle: boolean;
  readonly priorCycles: readonly {
    readonly cycleNumber: number;
    readonly status: string;
    readonly output: unknown;
    readonly summary?: string;
    /** A failed cycle's cause code, failed step and error (redacted): what to plan around. */
    readonly failure?: CycleFailure;
  }[];
};

/** The planner's task (`PlanTask`), plus the full schemas the snapshot holds only hashes of. */
export type PlanTask = {
  readonly kind: "plan";
  readonly lwirApiVersion: string;
  readonly workflowSnapshot: DefinitionCapabilities["snapshot"];
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  readonly requestedOutput: DefinitionCapabilities["requestedOutput"];
  readonly input: unknown;
  /** Revisions allowed after the first draft (`planner.maxRevisions`). */
  readonly revisionBudget: number;
  /** Submissions in all: the first draft plus `revisionBudget`. */
  readonly submissionsAllowed: number;
  readonly outerLoopContext?: OuterLoopContext;
  /**
   * The workflows a `workflow.run` step may call (the definition's `workflows`), each with its
   * input and output schemas; present only when it declares any.
   */
  readonly callableWorkflows?: readonly CallableWorkflow[];
};

/** A callee as the planner sees it. */
export type CallableWorkflow = {
  readonly id: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  readonly requestedOutput: DefinitionCapabilities["requestedOutput"];
};

/** What the fixer knows: the failed body, the error, and what the output must look like. */
export type FixTask = {
  readonly kind: "fix_step";
  readonly stepPath: string;
  readonly entrypoint: string;
  readonly source: string;
  readonly error: { readonly code: string; readonly message: string; readonly logs: readonly string[] };
  readonly input: unknown;
  readonly outputSchema: unknown;
};

/** Reads a plan task back out of a prompt (the offline planner does this). */
export function extractPlanTask(text: string): PlanTask | null {
  // The system prompt mentions the marker too; the task block is the last one.
  const start = text.lastIndexOf(PLAN_TASK_OPEN);
  const end = text.indexOf(PLAN_TASK_CLOSE, start);
  if (start === -1 || end === -1) return null;
  try {
    return JSON.parse(text.slice(start + PLAN_TASK_OPEN.length, end)) as PlanTask;
  } catch {
    return null;
  }
}

/** Reads a fix task back out of a prompt (the offline fixer does this, as the offline planner reads its plan task). */
export function extractFixTask(text: string): FixTask | null {
  const start = text.lastIndexOf(FIX_TASK_OPEN);
  const end = text.indexOf(FIX_TASK_CLOSE, start);
  if (start === -1 || end === -1) return null;
  try {
    const task = JSON.parse(text.slice(start + FIX_TASK_OPEN.length, end)) as FixTask;
    return task?.kind === "fix_step" && typeof task.source === "string" && typeof task.entrypoint === "string" ? task : null;
  } catch {
    return null;
  }
}
