import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { LEGACY_LWIR_VALIDATOR_ID, LWIR_VALIDATOR_ID, type LwirValidatorId, validatorVersion } from "../identity/lwir-validator-id.ts";
import { fieldReference, templateGrammar } from "../lwir/lwir-reference.ts";
import { LWIR_API_VERSION, promptedKinds, type StepKind } from "../lwir/types.ts";
import { type OuterLoopContext, PLAN_TASK_CLOSE, PLAN_TASK_OPEN, type PlanTask } from "../ports/planner-protocol.ts";
import type { Skill } from "../sdk/skill.ts";
import { branchingExample, callExample, minimalExample, signalExample } from "./plan-examples.ts";
import { promptRules } from "./planner-prompt-rules.ts";
import { skillFrontmatter } from "./skill-prompt.ts";

export type { OuterLoopContext, PlanTask } from "../ports/planner-protocol.ts";
export { extractPlanTask, PLAN_TASK_CLOSE, PLAN_TASK_OPEN } from "../ports/planner-protocol.ts";

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
    submissionsAllowed: allowedSubmissions(capabilities.snapshot.plannerConfig.maxRevisions),
    ...(outerLoopContext ? { outerLoopContext } : {}),
    ...(capabilities.callees.length > 0
      ? {
          callableWorkflows: capabilities.callees.map((c) => ({
            id: c.id,
            description: c.description,
            inputSchema: c.inputSchema,
            outputSchema: c.outputSchema,
            requestedOutput: c.requestedOutput,
          })),
        }
      : {}),
  };
}

/**
 * After a failed cycle of the outer loop, one line on what priorCycles[].failure means. Only then:
 * prompts of runs with no failed cycle keep their request hashes (saved histories, runs in flight).
 */
function replanNote(task: PlanTask): string {
  const failed = task.outerLoopContext?.priorCycles.filter((c) => c.failure !== undefined) ?? [];
  if (failed.length === 0) return "";
  // Only when a failed cycle had succeeded steps: other re-plans keep their request hashes.
  const effects = failed.some((c) => (c.failure?.succeededSteps?.length ?? 0) > 0)
    ? " Steps listed in failure.succeededSteps already ran (a tool's effects happened) and will run again if the new plan includes them: leave out what must not be repeated. Templates cannot read outerLoopContext: copy a value you need into the plan as a literal (a [redacted:…] value or an outputPreview is not the value). failure.succeededStepsOmitted counts succeeded steps the list leaves out."
    : "";
  return `
An earlier plan of this run failed: outerLoopContext.priorCycles[].failure gives its cause code, the failed step (stepId) and the error. Write a plan that avoids that failure; do not submit the failed plan again.${effects}`;
}

/** A section (`workflowSnapshot.section`) runs its plan once per trigger: say so, only then (other prompts keep their bytes). */
function sectionNote(task: PlanTask): string {
  if (task.workflowSnapshot.section?.kind !== "onTrigger") return "";
  return `
workflowSnapshot.section { kind: "onTrigger" }: this run is a section that serves many triggers. The plan you write is compiled once and runs once per trigger, with input = that trigger's payload (the task's input is the first one): plan for any valid payload, not for this one's values.`;
}

/** The rule line a definition with callees adds (only then: other prompts keep their bytes). */
const CALL_RULE = `
- workflow.run runs another workflow (one of the task's callableWorkflows[].id) as a child run and waits for it; its with.input must match that workflow's inputSchema, and its output is that workflow's output: give the step output = that workflow's requestedOutput (or { "mode": "json" }).`;

/** Where the planner's bash finds the contract and the task (every path listed here exists). */
export const TASK_FILES = {
  task: "/mnt/task/plan-task.json",
  schema: "/mnt/task/lwir.schema.json",
  reference: "/mnt/task/lwir-reference.md",
} as const;

/** The bash command that checks a draft against the task without spending a revision. */
export const LWIR_CHECK_COMMAND = "lwir-check";

/** Submissions a budget allows: the first draft plus `maxRevisions` revisions. */
export function allowedSubmissions(maxRevisions: number): number {
  return maxRevisions + 1;
}

/**
 * The planner's system prompt: the author's, then how to write LWIR (field reference, template
 * grammar, code.run digests, the budget, how to check a draft), then skill frontmatter. The field
 * reference and grammar are generated from the validator's contract, so they cannot drift from it.
 */
export function plannerSystemPrompt(
  authorSystem: string,
  skills: readonly Skill[],
  maxRevisions = 3,
  validator: LwirValidatorId = LWIR_VALIDATOR_ID,
  maxTurns = 16,
  kinds: readonly StepKind[] = promptedKinds(validatorVersion(validator)),
): string {
  const skillList = skillFrontmatter(skills);
  const rules = promptRules(validator);
  const extraRules = rules.rules.map((line) => `\n${line}`).join("");
  const check = rules.check(LWIR_CHECK_COMMAND, maxTurns, allowedSubmissions(maxRevisions), maxRevisions).join("\n");
  return `${authorSystem}

You are the planner of a Little Workflow run. Compile the workflow definition and run input in the
<plan-task> block into one LWIR document (JSON) and submit it with submit_lwir({ "lwir": <the document object> }).

Rules
- apiVersion "${LWIR_API_VERSION}", kind "Workflow"; metadata.name = workflowSnapshot.id; metadata.version "0.1.0".
- input.schema = the task's inputSchema and output.schema = its outputSchema, copied exactly.
- steps is a list. Each step has id, uses (its kind), needs (ids it runs after), with (settings of that kind) and output (what it returns).
- Exactly one step is terminal (no other step needs it); its output is the workflow's output: give it output = the task's requestedOutput, copied exactly.
- permissions lists every model slot id (workflowSnapshot.modelSlots[].id) and tool id (workflowSnapshot.tools[].id) a step uses; secrets and network are [] unless a step needs them. All four lists are required.
- tool.call input must match the tool's inputSchema (workflowSnapshot.tools[].inputSchema).${kinds.includes("workflow.run") ? CALL_RULE : ""}${extraRules}

Field reference (? = optional; every object is closed: unlisted fields are refused)
${fieldReference(kinds)}

${templateGrammar(validator === LEGACY_LWIR_VALIDATOR_ID ? 1 : 2)}

${rules.codeRun}

Checking and budget
- bash runs in /mnt/scratch/own. ${TASK_FILES.task}, ${TASK_FILES.reference} (every field) and ${TASK_FILES.schema} are there.
${check}

Skills:
${skillList}`;
}

/**
 * The user prompt: the task as JSON between markers, then two worked examples built from the
 * task's own slots and tools (placeholders stand for the schemas the task already shows).
 */
export function plannerUserPrompt(task: PlanTask, validator: LwirValidatorId = LWIR_VALIDATOR_ID): string {
  const section = validator === LEGACY_LWIR_VALIDATOR_ID ? "" : sectionNote(task);
  return `Compile this task into LWIR and submit it.${replanNote(task)}${section}
${PLAN_TASK_OPEN}
${JSON.stringify(task, null, 2)}
${PLAN_TASK_CLOSE}
${authorPlanNote(task)}Example 1, the smallest valid plan for this task:
${JSON.stringify(minimalExample(task))}
Example 2, code.run, a decision, a fan-out (forEach) and a join:
${JSON.stringify(branchingExample(task))}${moreExamples(task, validator)}`;
}

/**
 * Further worked examples for what the task declares, numbered from 3: a wait.signal with a timeout
 * branch (under `@3`, when it declares signals), a workflow.run (when it declares callees).
 */
function moreExamples(task: PlanTask, validator: LwirValidatorId): string {
  const examples: [string, unknown][] = [];
  const signal = validatorVersion(validator) >= 3 ? signalExample(task) : null;
  if (signal) examples.push(["wait.signal for a declared signal with a timeout, a decision on timedOut, and a join", signal]);
  const call = callExample(task);
  if (call) examples.push(["workflow.run: a step writes the callee's input, the child run's output is read downstream", call]);
  return examples.map(([what, example], i) => `\nExample ${3 + i}, ${what}:\n${JSON.stringify(example)}`).join("");
}

/** The author's plan, when the definition states one (`defineWorkflow({ plan })`): a suggestion, shown as such. */
function authorPlanNote(task: PlanTask): string {
  if (task.workflowSnapshot.plan === undefined) return "";
  return `The workflow's author suggests the plan in workflowSnapshot.plan. A string that is exactly "<workflow-id>", "<input-schema>", "<output-schema>", "<requested-output>" or "<model-slot>" stands for that value of the task. Submit it, filled in, unless this input needs another plan.\n`;
}
