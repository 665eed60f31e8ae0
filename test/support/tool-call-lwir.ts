import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../src/lwir/types.ts";

/**
 * LWIR with one `tool.call` step bound to a workflow (no planner needed): the workflow's own input
 * and output schemas, `tool` permitted, `input` templated from the run input.
 */
export async function toolCallLwir(
  workflow: RegisteredWorkflow,
  tool: string,
  input: Record<string, string>,
  options: { secrets?: string[]; timeoutMs?: number } = {},
): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition, workflow.tools);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0", description: `${tool} once` },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [tool], secrets: options.secrets ?? [], network: [] },
    steps: [
      {
        id: tool,
        uses: "tool.call",
        needs: [],
        with: { tool, input },
        output: caps.requestedOutput,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      },
    ],
  };
}
