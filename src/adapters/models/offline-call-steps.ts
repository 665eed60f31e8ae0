/**
 * @module The offline planner's `workflow.run` steps: one per workflow the task may call
 * (`callableWorkflows`). A callee whose required input the run input fills by name is called with
 * it; otherwise an `ai.generate` step first writes the callee's input (its output schema is the
 * callee's inputSchema) and the call passes it on field by field. Structural only, like the tool wiring.
 */
import type { ToolDescriptor } from "../../identity/tool-descriptors.ts";
import type { CallableWorkflow, PlanTask } from "../../ports/planner-protocol.ts";
import { fieldRef, plannedToolCalls, propertiesOf, uniqueStepId } from "./offline-tool-wiring.ts";

/** The steps that call one callee, and the id of the step whose output is the child's. */
export type PlannedCall = {
  readonly steps: readonly Record<string, unknown>[];
  readonly stepId: string;
  readonly callee: CallableWorkflow;
};

/** The calls of every callee, with step ids not in `taken` (which they are added to). */
export function plannedCalls(task: PlanTask, slot: string, taken: Set<string>): PlannedCall[] {
  return (task.callableWorkflows ?? []).map((callee) => {
    const stepId = uniqueStepId(callee.id.slice(callee.id.lastIndexOf(".") + 1), taken);
    // A callee looks like a tool to the wiring: fed by name from the run input, or not at all.
    const asTool = { id: callee.id, inputSchema: callee.inputSchema, outputSchema: callee.outputSchema } as unknown as ToolDescriptor;
    const direct = plannedToolCalls(task.inputSchema, [asTool], new Set())[0];
    const run = (input: Record<string, string>, needs: string[]) => ({
      id: stepId,
      uses: "workflow.run",
      needs,
      with: { workflow: callee.id, input },
      output: callee.requestedOutput,
    });
    if (direct) return { steps: [run({ ...direct.input }, [])], stepId, callee };
    const prepare = uniqueStepId(`${stepId}_input`, taken);
    const fields = propertiesOf(callee.inputSchema).map(([name]) => [name, `{{ ${fieldRef(`steps.${prepare}.output`, name)} }}`]);
    const lines = propertiesOf(task.inputSchema).map(([name]) => `- ${name}: {{ ${fieldRef("input", name)} }}`);
    return {
      steps: [
        {
          id: prepare,
          uses: "ai.generate",
          needs: [],
          with: {
            model: slot,
            prompt: `Write the input for ${callee.id}: ${callee.description}\n\nInput:\n${lines.join("\n") || "{{ json(input) }}"}`,
          },
          output: { mode: "object", schema: callee.inputSchema },
        },
        run(Object.fromEntries(fields), [prepare]),
      ],
      stepId,
      callee,
    };
  });
}
