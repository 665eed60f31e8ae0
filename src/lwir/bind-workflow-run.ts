import type { CalleeCapabilities, DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { checkCallInput } from "./bind-tool-input.ts";
import type { FindingSink } from "./findings-sink.ts";
import type { WorkflowRunStep } from "./types.ts";

/**
 * The binding of a `workflow.run` step: its callee is one the definition declares
 * (`binding.workflow_not_declared`), the literal parts of its input fit the callee's input schema
 * (`binding.workflow_input_mismatch`), and its `output` mode can hold the callee's output
 * (`binding.workflow_output_mismatch`). Each finding says what to write instead.
 */
export function checkWorkflowRunBinding(
  sink: FindingSink,
  step: WorkflowRunStep,
  path: string,
  capabilities: DefinitionCapabilities,
): void {
  const id = step.with?.workflow;
  if (typeof id !== "string") return;
  const callee = capabilities.callees.find((c) => c.id === id);
  if (!callee) {
    const ids = capabilities.callees.map((c) => c.id);
    sink.error(
      "binding.workflow_not_declared",
      `${path}.with.workflow`,
      `workflow "${id}" is not one this workflow may call (${ids.join(", ") || "it declares none"}); use an id from the task's callableWorkflows${ids.length === 0 ? ", or declare it with defineWorkflow({ workflows: [...] })" : ""}`,
    );
    return;
  }
  checkCallInput(
    sink,
    step.with.input,
    { what: `workflow "${id}"`, schema: callee.inputSchema, code: "binding.workflow_input_mismatch" },
    path,
  );
  checkOutputFits(sink, step, path, callee);
}

function checkOutputFits(sink: FindingSink, step: WorkflowRunStep, path: string, callee: CalleeCapabilities): void {
  const given = valueType((step.output as { mode?: unknown } | undefined)?.mode);
  const wanted = valueType(callee.requestedOutput.mode);
  if (given === "any" || wanted === "any" || given === wanted) return;
  sink.error(
    "binding.workflow_output_mismatch",
    `${path}.output`,
    `workflow "${callee.id}" outputs ${wanted === "string" ? "a string" : `an ${wanted}`}, which output mode "${String((step.output as { mode?: unknown }).mode)}" cannot hold; copy its requestedOutput exactly: ${JSON.stringify(callee.requestedOutput)} (or write { "mode": "json" })`,
  );
}

/** The JSON type an output mode's values have (as the terminal step's check reads it). */
function valueType(mode: unknown): string {
  if (mode === "text" || mode === "choice") return "string";
  if (mode === "object" || mode === "array") return mode;
  return "any";
}
