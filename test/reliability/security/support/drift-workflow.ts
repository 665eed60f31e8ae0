import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { extractPlanTask } from "../../../../src/harness/planner-prompt.ts";
import type { ModelResolver } from "../../../../src/ports/model-resolver.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../../../src/sdk/define-workflow.ts";
import { model } from "../../../../src/sdk/model.ts";
import { skill } from "../../../../src/sdk/skill.ts";
import { tool } from "../../../../src/sdk/tool.ts";
import { promptText, result } from "../../../support/scripted-models.ts";

/** Calls that reached a model or a tool, counted across a run and its resume. */
export type Counters = { planner: number; worker: number; tool: number };

export const WORKFLOW_ID = "reliability.drift";

/** A tool mock: always the same answer, every call counted. */
export function lookupTool(counters: Counters, overrides: { description?: string; input?: z.ZodType; output?: z.ZodType } = {}) {
  return tool({
    description: overrides.description ?? "Looks a customer's plan up by email",
    inputSchema: overrides.input ?? z.object({ email: z.string(), region: z.string() }),
    outputSchema: overrides.output ?? z.object({ plan: z.string(), seats: z.number() }),
    execute: async () => {
      counters.tool++;
      return { plan: "pro", seats: 5 };
    },
  });
}

/** A second tool the planned LWIR does not use. */
export function notifyTool(counters: Counters, description = "Notifies the customer") {
  return tool({
    description,
    inputSchema: z.object({ email: z.string() }),
    execute: async () => {
      counters.tool++;
      return { sent: true };
    },
  });
}

export function mockModel(provider: string, modelId: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({ provider, modelId, doGenerate: async () => result([{ type: "text", text: "{}" }]) });
}

/** The base definition every change starts from: a tool and a worker model, a planner with a skill. */
export function baseDefinition(counters: Counters): WorkflowDefinitionInput {
  return {
    id: WORKFLOW_ID,
    description: "Answers a customer question with their plan.",
    input: z.object({ email: z.string(), question: z.string() }),
    output: { mode: "object", schema: z.object({ answer: z.string(), plan: z.string() }) },
    models: [
      model(mockModel("openai.chat", "worker-a"), {
        description: "Writes short answers.",
        pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 2 },
      }),
    ],
    planner: {
      model: mockModel("openai.responses", "planner-a"),
      system: "Plan a lookup, then an answer.",
      skills: [skill({ name: "lookups", description: "How to look customers up", body: "Use the lookup tool first." })],
      maxRevisions: 3,
    },
    tools: { lookup: lookupTool(counters), notify: notifyTool(counters) },
    memory: { workflow: "rw", org: "ro" },
  };
}

export const define = (input: WorkflowDefinitionInput) => defineWorkflow(input as never);

/** The LWIR the planner submits: look the customer up, then answer with the worker slot. */
function plannedLwir(text: string): unknown {
  const task = extractPlanTask(text);
  if (!task) throw new Error("drift planner: no <plan-task> in the prompt");
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: WORKFLOW_ID, version: "0.1.0" },
    input: { schema: task.inputSchema },
    output: { schema: task.outputSchema },
    permissions: { models: ["worker-a"], tools: ["lookup"], secrets: [], network: [] },
    steps: [
      {
        id: "look",
        uses: "tool.call",
        needs: [],
        with: { tool: "lookup", input: { email: "{{ input.email }}", region: "eu" } },
        output: { mode: "json" },
      },
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["look"],
        with: { model: "worker-a", prompt: "Answer {{ input.question }} for a {{ steps.look.output.plan }} customer." },
        output: { mode: "object", schema: task.outputSchema },
      },
    ],
  };
}

/** A planner that submits the LWIR at once, and a worker that answers; both counted. */
export function countingResolver(counters: Counters): ModelResolver {
  const planner = new MockLanguageModelV4({
    provider: "openai.responses",
    modelId: "planner-a",
    doGenerate: async (options) => {
      counters.planner++;
      const lwir = plannedLwir(promptText(options));
      return result([{ type: "tool-call", toolCallId: "call-submit", toolName: "submit_lwir", input: JSON.stringify({ lwir }) }]);
    },
  });
  const worker = new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "worker-a",
    doGenerate: async () => {
      counters.worker++;
      return result([{ type: "text", text: JSON.stringify({ answer: "You have 5 seats.", plan: "pro" }) }]);
    },
  });
  return { resolve: (request) => ({ model: request.role === "planner" ? planner : worker, offline: false }) };
}
