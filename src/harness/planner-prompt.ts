import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { LWIR_API_VERSION, STEP_KINDS } from "../lwir/types.ts";
import type { Skill } from "../sdk/skill.ts";

/** Prior cycles of an outer loop, as the planner sees them (seed, "Outer-Loop Context"). */
export type OuterLoopContext = {
  readonly cycleNumber: number;
  readonly maxCycles: number;
  readonly isFinalCycle: boolean;
  readonly priorCycles: readonly {
    readonly cycleNumber: number;
    readonly status: string;
    readonly output: unknown;
    readonly summary?: string;
  }[];
};

/** The planner's task (seed: `PlanTask`), plus the full schemas the snapshot holds only hashes of. */
export type PlanTask = {
  readonly kind: "plan";
  readonly lwirApiVersion: string;
  readonly workflowSnapshot: DefinitionCapabilities["snapshot"];
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  readonly requestedOutput: DefinitionCapabilities["requestedOutput"];
  readonly input: unknown;
  readonly revisionBudget: number;
  readonly outerLoopContext?: OuterLoopContext;
};

export const PLAN_TASK_OPEN = "<plan-task>";
export const PLAN_TASK_CLOSE = "</plan-task>";

/** Builds the task from a definition's capabilities and the run input. */
export function planTask(capabilities: DefinitionCapabilities, input: unknown, outerLoopContext?: OuterLoopContext): PlanTask {
  return {
    kind: "plan",
    lwirApiVersion: LWIR_API_VERSION,
    workflowSnapshot: capabilities.snapshot,
    inputSchema: capabilities.inputSchema,
    outputSchema: capabilities.outputSchema,
    requestedOutput: capabilities.requestedOutput,
    input,
    revisionBudget: capabilities.snapshot.plannerConfig.maxRevisions,
    ...(outerLoopContext ? { outerLoopContext } : {}),
  };
}

/** The planner's system prompt: the author's, then the harness's rules, then skill frontmatter. */
export function plannerSystemPrompt(authorSystem: string, skills: readonly Skill[]): string {
  const skillList =
    skills.length === 0
      ? "(none)"
      : skills.map((s) => `- ${s.name}: ${s.description} (read: cat .agents/skills/${s.name}/SKILL.md)`).join("\n");
  return `${authorSystem}

You are the planner of a Little Workflow run. Compile the workflow definition and the run input in
the <plan-task> block into LWIR (apiVersion "${LWIR_API_VERSION}", kind "Workflow"), a JSON DAG of
steps, and submit it with the submit_lwir tool. Rules:
- metadata.name is the workflow id; input.schema and output.schema are exactly the task's
  inputSchema and outputSchema.
- permissions.models/tools name only model slot ids and tool ids from the snapshot; list every
  one a step uses; secrets and network are [] unless the definition provides them.
- Step kinds: ${STEP_KINDS.join(", ")}. Exactly one step is terminal (no other step needs it);
  its output is the workflow's output and must satisfy output.schema.
- Templates: {{ input.<field> }} and {{ steps.<id>.output.<path> }} (only for steps upstream via
  needs).
- Use bash (cwd /mnt/scratch/own) to draft and check your work; memory is at /mnt/memory.
- submit_lwir answers with findings when the document is invalid: fix them and submit again. You
  have a limited number of revisions.
Skills:
${skillList}`;
}

/** The planner's user prompt: the task as JSON between markers. */
export function plannerUserPrompt(task: PlanTask): string {
  return `Compile this task into LWIR and submit it.\n${PLAN_TASK_OPEN}\n${JSON.stringify(task, null, 2)}\n${PLAN_TASK_CLOSE}`;
}

/** Reads a task back out of a prompt (the offline planner does this). */
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
