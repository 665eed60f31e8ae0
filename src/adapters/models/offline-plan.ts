import { LWIR_API_VERSION, LWIR_KIND } from "../../lwir/types.ts";
import type { PlanTask } from "../../ports/planner-protocol.ts";
import { type PlannedCall, plannedCalls } from "./offline-call-steps.ts";
import { fieldRef, type PlannedToolCall, plannedToolCalls, propertiesOf } from "./offline-tool-wiring.ts";

const GENERATE = "generate";
const WAIT = "wait";
/** How long the offline plan's wait.signal waits (a day) before it times out and the run goes on. */
const OFFLINE_SIGNAL_TIMEOUT_MS = 86_400_000;

/**
 * The offline planner's LWIR for a task, built from the snapshot's structure alone (never the
 * input's values, so every input gets the same version): a `tool.call` for every tool whose
 * required input the run input or an earlier tool's output can fill (offline-tool-wiring.ts),
 * then one `ai.generate` on the first model slot that is shown the input and every tool result
 * and answers the requested output. When the definition declares signals, a `wait.signal` on all of
 * them (a day's timeout) comes first and the answer is shown what arrived. Valid and bound by
 * construction, so an offline run exercises the tools, approvals, secrets and signals the
 * definition declares with no model provider.
 */
export function offlinePlan(task: PlanTask): Record<string, unknown> {
  const snapshot = task.workflowSnapshot;
  const slot = snapshot.modelSlots[0]?.id ?? "offline";
  const calls = plannedToolCalls(task.inputSchema, snapshot.tools, new Set([GENERATE, WAIT]));
  const signals = (snapshot.signals ?? []).map((s) => s.name);
  const wait =
    signals.length > 0 ? [{ id: WAIT, uses: "wait.signal", needs: [], with: { signals, timeoutMs: OFFLINE_SIGNAL_TIMEOUT_MS } }] : [];
  // Then a workflow.run per callee the definition declares (none for most workflows).
  const children = plannedCalls(task, slot, new Set([GENERATE, WAIT, ...calls.map((c) => c.stepId)]));
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: snapshot.id, version: "0.1.0", description: snapshot.description },
    input: { schema: task.inputSchema },
    output: { schema: task.outputSchema },
    // The secrets the called tools declare (the definition binds each, or it would not snapshot):
    // a tool.call gets only those its version permits.
    permissions: { models: [slot], tools: calls.map((c) => c.tool.id), secrets: secretsOf(calls), network: [] },
    steps: [
      ...wait,
      ...calls.map(toolStep),
      ...children.flatMap((c) => c.steps),
      {
        id: GENERATE,
        uses: "ai.generate",
        needs: [...wait.map((w) => w.id), ...calls.map((c) => c.stepId), ...children.map((c) => c.stepId)],
        with: { model: slot, prompt: generatePrompt(task, calls, children, wait.length > 0) },
        output: task.requestedOutput,
      },
    ],
  };
}

function toolStep(call: PlannedToolCall): Record<string, unknown> {
  return {
    id: call.stepId,
    uses: "tool.call",
    needs: call.needs,
    with: { tool: call.tool.id, input: call.input },
    output: call.outputSchema ? { mode: "object", schema: call.outputSchema } : { mode: "json" },
  };
}

/**
 * One `name: value` line per input field and per tool result: the form the offline worker reads
 * values back from (offline-prompt-values.ts), and plain enough for a person reading the run.
 */
function generatePrompt(task: PlanTask, calls: readonly PlannedToolCall[], children: readonly PlannedCall[], waited: boolean): string {
  const fields = propertiesOf(task.inputSchema).map(([name]) => `- ${name}: {{ ${fieldRef("input", name)} }}`);
  const input = fields.length > 0 ? fields : ["{{ json(input) }}"];
  const results = calls.map((c) => `- ${c.tool.id}: {{ json(steps.${c.stepId}.output) }}`);
  const sections = [task.workflowSnapshot.description, `Input:\n${input.join("\n")}`];
  if (results.length > 0) sections.push(`Tool results:\n${results.join("\n")}`);
  if (waited) sections.push(`Signal:\n- signal: {{ json(steps.${WAIT}.output) }}`);
  // Named by step id: an output field of that name (a "refund" for the refund's child) takes the child's output.
  const outputs = children.map((c) => `- ${c.stepId}: {{ json(steps.${c.stepId}.output) }}`);
  if (outputs.length > 0) sections.push(`Child runs:\n${outputs.join("\n")}`);
  return sections.join("\n\n");
}

function secretsOf(calls: readonly PlannedToolCall[]): string[] {
  return [...new Set(calls.flatMap((c) => c.tool.secrets ?? []))].sort();
}
