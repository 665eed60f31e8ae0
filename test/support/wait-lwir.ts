import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../src/lwir/types.ts";

/**
 * LWIR of the given steps bound to a workflow (no planner needed): the workflow's own input and
 * output schemas, nothing permitted. For wait steps, whose output the kind fixes.
 */
export async function stepsLwir(workflow: RegisteredWorkflow, steps: readonly Record<string, unknown>[]): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition, workflow.tools);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [], secrets: [], network: [] },
    steps: steps.map((s) => ({ needs: [], ...s })),
  };
}
