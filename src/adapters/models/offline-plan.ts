import { LWIR_API_VERSION, LWIR_KIND } from "../../lwir/types.ts";
import type { PlanTask } from "../../ports/planner-protocol.ts";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The offline planner's LWIR for a task: one `ai.generate` step on the first model slot whose
 * prompt names every input field and whose output is the requested output. Valid and bound by
 * construction, so the whole pipeline runs with no model provider.
 */
export function offlinePlan(task: PlanTask): Record<string, unknown> {
  const snapshot = task.workflowSnapshot;
  const slot = snapshot.modelSlots[0]?.id ?? "offline";
  const properties = inputProperties(task.inputSchema);
  const lines = properties.length > 0 ? properties.map((p) => `- ${p}: {{ ${inputRef(p)} }}`) : ["{{ json(input) }}"];
  const prompt = `${snapshot.description}\n\nInput:\n${lines.join("\n")}`;
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: snapshot.id, version: "0.1.0", description: snapshot.description },
    input: { schema: task.inputSchema },
    output: { schema: task.outputSchema },
    permissions: { models: [slot], tools: [], secrets: [], network: [] },
    steps: [{ id: "generate", uses: "ai.generate", needs: [], with: { model: slot, prompt }, output: task.requestedOutput }],
  };
}

function inputProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

function inputRef(name: string): string {
  return IDENTIFIER.test(name) ? `input.${name}` : `input[${JSON.stringify(name)}]`;
}
