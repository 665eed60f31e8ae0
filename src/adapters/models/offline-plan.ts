import { LWIR_API_VERSION, LWIR_KIND } from "../../lwir/types.ts";
import type { PlanTask } from "../../ports/planner-protocol.ts";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The offline planner's LWIR for a task: one `ai.generate` step on the first model slot whose
 * prompt names every input field and whose output is the requested output, after one tool.call
 * of each tool the definition requires. Valid and bound by
 * construction, so the whole pipeline runs with no model provider.
 */
export function offlinePlan(task: PlanTask): Record<string, unknown> {
  const snapshot = task.workflowSnapshot;
  const slot = snapshot.modelSlots[0]?.id ?? "offline";
  const properties = inputProperties(task.inputSchema);
  const lines = properties.length > 0 ? properties.map((p) => `- ${p}: {{ ${inputRef(p)} }}`) : ["{{ json(input) }}"];
  // Required tools (docs/lwir.md) must be called on every path: one call each, before the answer,
  // each input field read from the input field of the same name.
  const required = snapshot.tools.filter((t) => (snapshot.requiredTools ?? []).includes(t.id));
  const calls = required.map((t, i) => ({
    id: `call${i + 1}`,
    uses: "tool.call",
    needs: [],
    with: { tool: t.id, input: Object.fromEntries(inputProperties(t.inputSchema).map((f) => [f, `{{ ${inputRef(f)} }}`])) },
    output: { mode: "json" },
  }));
  const results = calls.map((c) => `\n${c.id} (${c.with.tool}): {{ json(steps.${c.id}.output) }}`).join("");
  const prompt = `${snapshot.description}\n\nInput:\n${lines.join("\n")}${results}`;
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: snapshot.id, version: "0.1.0", description: snapshot.description },
    input: { schema: task.inputSchema },
    output: { schema: task.outputSchema },
    permissions: { models: [slot], tools: required.map((t) => t.id), secrets: [], network: [] },
    steps: [
      ...calls,
      { id: "generate", uses: "ai.generate", needs: calls.map((c) => c.id), with: { model: slot, prompt }, output: task.requestedOutput },
    ],
  };
}

function inputProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

function inputRef(name: string): string {
  return IDENTIFIER.test(name) ? `input.${name}` : `input[${JSON.stringify(name)}]`;
}
