import type { CallableWorkflow } from "../ports/planner-protocol.ts";
import { INPUT_SCHEMA_PLACEHOLDER, OUTPUT_SCHEMA_PLACEHOLDER, REQUESTED_OUTPUT_PLACEHOLDER } from "./plan-examples.ts";
import type { PlanTask } from "./planner-prompt.ts";

type Json = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `base.x`, or `base["x-y"]` when the name is not an identifier. */
function ref(base: string, name: string): string {
  return IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

function fieldsOf(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

/**
 * The worked example of a `workflow.run` for a task that declares callees (none otherwise): an
 * ai.generate writes the first callee's input (its output schema is the callee's inputSchema),
 * the workflow.run passes it field by field and outputs the callee's requestedOutput, and the
 * terminal step reads the child's output. Built from the task's own slot and callee.
 */
export function callExample(task: PlanTask): Json | null {
  const callee: CallableWorkflow | undefined = task.callableWorkflows?.[0];
  if (!callee) return null;
  const slot = task.workflowSnapshot.modelSlots[0]?.id ?? "<slot id>";
  const input = Object.fromEntries(fieldsOf(callee.inputSchema).map((f) => [f, `{{ ${ref("steps.prepare.output", f)} }}`]));
  return {
    apiVersion: task.lwirApiVersion,
    kind: "Workflow",
    metadata: { name: task.workflowSnapshot.id, version: "0.1.0" },
    input: { schema: INPUT_SCHEMA_PLACEHOLDER },
    output: { schema: OUTPUT_SCHEMA_PLACEHOLDER },
    permissions: { models: [slot], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "prepare",
        uses: "ai.generate",
        needs: [],
        with: { model: slot, prompt: `Write the input for ${callee.id} (${callee.description}) from: {{ json(input) }}` },
        output: { mode: "object", schema: callee.inputSchema },
      },
      { id: "call", uses: "workflow.run", needs: ["prepare"], with: { workflow: callee.id, input }, output: callee.requestedOutput },
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["call"],
        with: {
          model: slot,
          prompt: `${task.workflowSnapshot.description}\nInput: {{ json(input) }}\n${callee.id}: {{ json(steps.call.output) }}`,
        },
        output: REQUESTED_OUTPUT_PLACEHOLDER,
      },
    ],
  };
}
