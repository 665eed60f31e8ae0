/**
 * @module The flow-control gates of one start: the definition's `concurrency` and `throttle` with
 * their key templates rendered over the input (docs/flow-control.md).
 */
import { digestJson } from "../../json/digest.ts";
import { renderTemplate } from "../../lwir/evaluate-template.ts";
import { expressionsOf, parseTemplate, stepReferences } from "../../lwir/template.ts";
import type { FlowGate } from "../../ports/flow-limiter.ts";
import { WorkflowDefinitionError } from "../../sdk/errors/workflow-definition-error.ts";
import type { WorkflowDefinition } from "../../sdk/index.ts";

/** The key of a limit without a `key`: one queue for the workflow (per tenant). */
export const WHOLE_WORKFLOW_KEY = "*";
/** Keys longer than this are named by their digest (a limiter's name stays short). */
const MAX_KEY_LENGTH = 200;

/**
 * The gates a run of `definition` with `input` passes before it is driven, in order: each
 * concurrency limit, then the throttle. Empty for a workflow without flow control. A key
 * template that does not parse, or reads anything but the input, is a definition error (422).
 *
 * @example
 * flowGatesOf({ ...def, concurrency: [{ limit: 2, key: "{{ input.customerId }}" }] }, { customerId: "c1" })
 * // [{ kind: "concurrency", index: 0, key: "c1", limit: 2 }]
 */
export function flowGatesOf(definition: WorkflowDefinition, input: unknown): FlowGate[] {
  const gates: FlowGate[] = (definition.concurrency ?? []).map((c, index) => ({
    kind: "concurrency",
    index,
    key: renderKey(definition.id, `$.concurrency[${index}].key`, c.key, input),
    limit: c.limit,
  }));
  const throttle = definition.throttle;
  if (throttle)
    gates.push({
      kind: "throttle",
      index: 0,
      key: renderKey(definition.id, "$.throttle.key", throttle.key, input),
      limit: throttle.limit,
      periodMs: throttle.periodMs,
    });
  return gates;
}

function renderKey(workflowId: string, path: string, template: string | undefined, input: unknown): string {
  if (template === undefined) return WHOLE_WORKFLOW_KEY;
  const parsed = parseTemplate(template);
  const problem = !parsed.ok
    ? parsed.error.message
    : expressionsOf(parsed.parts).some((e) => stepReferences(e).length > 0)
      ? "a key reads only the input ({{ input.… }}): no step has run when a run is admitted"
      : null;
  if (problem)
    throw new WorkflowDefinitionError(workflowId, [{ severity: "error", code: "definition.invalid_flow_key", path, message: problem }]);
  const value = renderTemplate(template, { input, steps: {} });
  const key = typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
  return key.length > MAX_KEY_LENGTH ? digestJson(key) : key;
}
