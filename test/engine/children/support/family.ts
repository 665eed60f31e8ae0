import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { definitionCapabilities } from "../../../../src/engine/definition-capabilities.ts";
import { catalogOf, type RegisteredWorkflow, type WorkflowCatalog } from "../../../../src/engine/run-environment.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../../../src/lwir/types.ts";
import { SCHEMA_NORMALIZER } from "../../../../src/schema/normalize-schema.ts";
import { defineWorkflow, type WorkflowDefinition } from "../../../../src/sdk/define-workflow.ts";
import { model } from "../../../../src/sdk/model.ts";
import { tool } from "../../../../src/sdk/tool.ts";

/** How many times each text reached the failing child's tool (a text listed in `failOnce` fails its first call). */
export const calls = new Map<string, number>();
export const failOnce = new Set<string>();

const models = [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })];
const planner = { model: openai("gpt-5"), system: "Plan it." };
const text = z.object({ text: z.string() });
const echoed = z.object({ echoed: z.string() });

/** A child that echoes its text through a tool; a text in `failOnce` fails its first call (not retriable). */
export function echoChild(description = "Echo the text with the echo tool."): WorkflowDefinition {
  return defineWorkflow({
    id: "family.echo",
    description,
    input: text,
    output: echoed,
    models,
    planner,
    tools: {
      echo: tool({
        description: "Echo a text",
        inputSchema: text,
        outputSchema: echoed,
        execute: async ({ text: t }: { text: string }) => {
          const n = (calls.get(t) ?? 0) + 1;
          calls.set(t, n);
          if (failOnce.has(t) && n === 1) throw Object.assign(new Error(`echo refused "${t}" once`), { retriable: false });
          return { echoed: t };
        },
      }),
    },
    requiredTools: ["echo"],
  });
}

/** A child whose tool needs a person's approval: it waits (waitReason approval) until decided. */
export const approvalChild = defineWorkflow({
  id: "family.approve",
  description: "Echo the text after a person approves.",
  input: text,
  output: echoed,
  models,
  planner,
  tools: {
    approve: tool({
      description: "Echo a text once approved",
      inputSchema: text,
      outputSchema: echoed,
      needsApproval: true,
      execute: async ({ text: t }: { text: string }) => ({ echoed: t }),
    }),
  },
  requiredTools: ["approve"],
});

/** A parent that calls `callee` (the offline planner plans a workflow.run for it), with a run `timeoutMs` when given. */
export function parentOf(id: string, callee: string, timeoutMs?: number): WorkflowDefinition {
  return defineWorkflow({
    id,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    description: `Run ${callee} on the text and report what it echoed.`,
    input: text,
    output: echoed,
    models,
    planner,
    workflows: [callee],
  });
}

/** The family's catalog: the parents, the echo child (as given) and the approval child. */
export function familyCatalog(echo: WorkflowDefinition = echoChild(), extra: readonly WorkflowDefinition[] = []): WorkflowCatalog {
  const entries: RegisteredWorkflow[] = [
    { definition: echo, tools: {} },
    { definition: approvalChild, tools: {} },
    { definition: parentOf("family.parent", "family.echo"), tools: {} },
    { definition: parentOf("family.waiter", "family.approve"), tools: {} },
    ...extra.map((definition) => ({ definition, tools: {} })),
  ];
  return catalogOf(entries);
}

/** LWIR for a parent: one workflow.run of its callee on the input's text, with `retry` when given. */
export async function callLwir(catalog: WorkflowCatalog, parentId: string, retry?: { maxAttempts: number; backoffMs: number }) {
  const registered = catalog.get(parentId) as RegisteredWorkflow;
  const caps = await definitionCapabilities(registered, SCHEMA_NORMALIZER);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: parentId, version: "0.1.0" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "call",
        uses: "workflow.run",
        needs: [],
        with: { workflow: caps.callees[0]?.id, input: { text: "{{ input.text }}" } },
        output: caps.requestedOutput,
        ...(retry ? { retry } : {}),
      },
    ],
  };
}
