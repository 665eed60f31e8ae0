import { wrapLanguageModel } from "ai";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../src/lwir/types.ts";
import type { ModelResolver } from "../../src/ports/model-resolver.ts";

/**
 * A three-step plan of the seed workflow (support.summarize-ticket): `extract` reads the
 * transcript, `classify` reads the ticket id, `report` reads both of their outputs and answers the
 * workflow's output. What restart and fork tests change one piece of.
 */
export async function threeStepLwir(workflow: RegisteredWorkflow): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition, workflow.tools);
  const text = { type: "object", required: ["text"], properties: { text: { type: "string" } }, additionalProperties: false };
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "extract",
        uses: "ai.generate",
        needs: [],
        with: { model: "gpt-4o-mini", prompt: "List the facts in this transcript:\n{{ input.transcript }}" },
        output: { mode: "object", schema: text },
      },
      {
        id: "classify",
        uses: "ai.generate",
        needs: [],
        with: { model: "gpt-4o-mini", prompt: "Which queue handles ticket {{ input.ticketId }}?" },
        output: { mode: "object", schema: text },
      },
      {
        id: "report",
        uses: "ai.generate",
        needs: ["extract", "classify"],
        with: {
          model: "gpt-4o-mini",
          prompt: "Summarize and rate the severity.\nFacts: {{ steps.extract.output.text }}\nQueue: {{ steps.classify.output.text }}",
        },
        output: { mode: "object", schema: caps.outputSchema },
      },
    ],
  };
}

/** The offline model, with every call it answers counted: what "no model call" is checked against. */
export function countingOfflineModels(): { resolver: ModelResolver; calls: () => number } {
  const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
  let calls = 0;
  const resolver: ModelResolver = {
    resolve(request) {
      const resolved = offline.resolve(request);
      const model = wrapLanguageModel({
        model: resolved.model as Parameters<typeof wrapLanguageModel>[0]["model"],
        middleware: {
          specificationVersion: "v4",
          wrapGenerate: async ({ doGenerate }) => {
            calls += 1;
            return doGenerate();
          },
          wrapStream: async ({ doStream }) => {
            calls += 1;
            return doStream();
          },
        },
      });
      return { ...resolved, model };
    },
  };
  return { resolver, calls: () => calls };
}
