import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import type { RegisteredWorkflow } from "../../../../src/engine/run-environment.ts";
import { extractPlanTask } from "../../../../src/harness/planner-prompt.ts";
import { digestJson, digestText } from "../../../../src/json/digest.ts";
import type { ModelResolver } from "../../../../src/ports/model-resolver.ts";
import { defineWorkflow } from "../../../../src/sdk/define-workflow.ts";
import { model } from "../../../../src/sdk/model.ts";
import { tool } from "../../../../src/sdk/tool.ts";
import { promptText, result, scriptedPlanner } from "../../../support/scripted-models.ts";
import { CountingSink } from "./counting-sink.ts";

/**
 * The crash matrix's golden run: a planner session (bash, submit_lwir), then 20 executed steps —
 * an ai.generate, a tool.call, a code.run whose broken body a fixer repairs, a fan-out of 16
 * tool calls, and a closing ai.generate. One step at a time (`maxConcurrency: 1`) so the log's
 * order is the same on every run and a resumed log can be compared to the golden one event by
 * event. Every model request and tool call lands on a {@link CountingSink}.
 */
export const GOLDEN_WORKFLOW_ID = "reliability.golden";
export const RECIPIENTS = Array.from({ length: 16 }, (_, i) => `r${String(i + 1).padStart(2, "0")}`);
export const GOLDEN_INPUT = { ticketId: "T-42", recipients: RECIPIENTS };

const BROKEN = "export async function run({ input }) {\n  return { score: input.plan.lenght * 10 };\n}";
const FIXED = "export async function run({ input }) {\n  return { score: input.plan.length * 10 };\n}";

/** The LWIR the scripted planner submits; schemas copied from its task as a real planner does. */
export function goldenLwirFor(options: LanguageModelV4CallOptions): Record<string, unknown> {
  const task = extractPlanTask(promptText(options));
  if (!task) throw new Error("golden planner: no <plan-task> in the prompt");
  return goldenLwir(task.inputSchema, task.outputSchema);
}

/** The golden LWIR itself (for `POST /v1/lwir/runs`-style runs without a planner). */
export function goldenLwir(inputSchema: unknown, outputSchema: unknown): Record<string, unknown> {
  const object = (properties: Record<string, unknown>) => ({ type: "object", properties, required: Object.keys(properties) });
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: GOLDEN_WORKFLOW_ID, version: "0.1.0" },
    input: { schema: inputSchema },
    output: { schema: outputSchema },
    permissions: { models: ["worker", "fixer"], tools: ["crm.lookup", "notify.send"], secrets: [], network: [] },
    steps: [
      {
        id: "classify",
        uses: "ai.generate",
        needs: [],
        with: { model: "worker", prompt: "Classify ticket {{ input.ticketId }}." },
        output: { mode: "object", schema: object({ category: { type: "string" } }) },
      },
      {
        id: "lookup",
        uses: "tool.call",
        needs: ["classify"],
        with: { tool: "crm.lookup", input: { ticketId: "{{ input.ticketId }}" } },
        output: { mode: "json" },
      },
      {
        id: "score",
        uses: "code.run",
        needs: ["lookup"],
        with: {
          entrypoint: "score.ts",
          files: { "score.ts": { content: BROKEN, sha256: digestText(BROKEN) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: { plan: "{{ steps.lookup.output.plan }}" },
        },
        output: { mode: "object", schema: object({ score: { type: "number" } }) },
        onFailure: { fixer: { model: "fixer", maxAttempts: 1, system: "Fix the code so its output matches the schema." } },
      },
      {
        id: "notify",
        uses: "tool.call",
        needs: ["score"],
        forEach: { items: "{{ input.recipients }}", maxConcurrency: 1 },
        with: { tool: "notify.send", input: { to: "{{ item }}", category: "{{ steps.classify.output.category }}" } },
        output: { mode: "json" },
      },
      {
        id: "summarize",
        uses: "ai.generate",
        needs: ["notify"],
        with: { model: "worker", prompt: "Summarize ticket {{ input.ticketId }} (score {{ steps.score.output.score }})." },
        output: { mode: "object", schema: object({ summary: { type: "string" } }) },
      },
    ],
  };
}

/** A worker that answers both ai.generate steps, and a fixer that submits the repaired body. */
function workerModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "worker",
    doGenerate: async (options) => {
      const text = promptText(options);
      const answer = text.includes("Classify") ? { category: "billing" } : { summary: "Billing ticket, 16 people told." };
      return result([{ type: "text", text: JSON.stringify(answer) }]);
    },
  });
}

function fixerModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "fixer",
    doGenerate: async () =>
      result([{ type: "tool-call", toolCallId: "fix-1", toolName: "submit_fix", input: JSON.stringify({ source: FIXED }) }]),
  });
}

/** Everything one golden run needs, with fresh counters. */
export type GoldenRig = {
  readonly catalogEntry: RegisteredWorkflow;
  readonly models: ModelResolver;
  /** Model requests by role and request digest; tool calls by idempotency key. */
  readonly sink: CountingSink;
};

/** Builds the golden workflow with counting models and tools. */
export function goldenRig(): GoldenRig {
  const sink = new CountingSink();
  const planner = scriptedPlanner([goldenLwirFor]);
  const worker = workerModel();
  const fixer = fixerModel();
  const counted = (role: string, mock: MockLanguageModelV4) =>
    new MockLanguageModelV4({
      provider: mock.provider,
      modelId: mock.modelId,
      doGenerate: async (options) => {
        sink.deliver(`model:${role}:${digestJson(JSON.parse(JSON.stringify(options.prompt)))}`);
        return mock.doGenerate(options);
      },
    });
  const byRole = { planner: counted("planner", planner), worker: counted("worker", worker), fixer: counted("fixer", fixer) };
  const deliver = (name: string) => (input: unknown, options: { toolCallId?: string }) => {
    sink.deliver(`tool:${options.toolCallId ?? "?"}`);
    return name === "crm.lookup" ? { plan: "pro" } : { sent: (input as { to: string }).to };
  };
  const definition = defineWorkflow({
    id: GOLDEN_WORKFLOW_ID,
    description: "Classify a ticket, look it up, score it with code, notify 16 people, summarize.",
    input: z.object({ ticketId: z.string(), recipients: z.array(z.string()) }),
    output: { mode: "json" },
    models: [
      model(byRole.worker, { description: "answers steps", id: "worker" }),
      model(byRole.fixer, { description: "repairs code", id: "fixer" }),
    ],
    planner: { model: byRole.planner, system: "You design ticket workflows." },
    maxConcurrency: 1,
    tools: {
      "crm.lookup": tool({
        description: "Looks a ticket's customer up",
        inputSchema: z.object({ ticketId: z.string() }),
        execute: async (input, options) => deliver("crm.lookup")(input, options),
      }),
      "notify.send": tool({
        description: "Notifies one person",
        inputSchema: z.object({ to: z.string(), category: z.string() }),
        execute: async (input, options) => deliver("notify.send")(input, options),
      }),
    },
  });
  return {
    catalogEntry: { definition, tools: {} },
    models: { resolve: (request) => ({ model: byRole[request.role], offline: false }) },
    sink,
  };
}
