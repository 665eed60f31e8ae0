import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { extractPlanTask } from "../../src/harness/planner-prompt.ts";
import type { ModelResolver } from "../../src/ports/model-resolver.ts";

/** A model result with the given content and fixed usage. */
export function result(content: LanguageModelV4Content[]): LanguageModelV4GenerateResult {
  return {
    content,
    finishReason: { unified: content.some((c) => c.type === "tool-call") ? "tool-calls" : "stop", raw: undefined },
    usage: {
      inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 20, text: 20, reasoning: undefined },
    },
    response: { id: "resp", modelId: "mock", timestamp: new Date(1_700_000_000_000) },
    warnings: [],
  };
}

/** All text of a call's prompt. */
export function promptText(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n")))
    .join("\n");
}

/** Tool results (name, output) the prompt already carries, in order. */
export function toolResults(options: LanguageModelV4CallOptions): { toolName: string; output: unknown }[] {
  return options.prompt.flatMap((m) =>
    m.role === "tool" ? m.content.filter((p) => p.type === "tool-result").map((p) => ({ toolName: p.toolName, output: p.output })) : [],
  );
}

/** The seed's single-step LWIR, with the schemas the task gives (as a real planner copies them). */
export function seedLwirFor(options: LanguageModelV4CallOptions): Record<string, unknown> {
  const task = extractPlanTask(promptText(options));
  if (!task) throw new Error("scripted planner: no <plan-task> in the prompt");
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: task.workflowSnapshot.id, version: "0.1.0", description: "Summarize a support ticket and classify severity." },
    input: { schema: task.inputSchema },
    output: { schema: task.outputSchema },
    permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "summarize",
        uses: "ai.generate",
        needs: [],
        with: {
          model: "gpt-4o-mini",
          prompt:
            "Summarize ticket {{ input.ticketId }} based on this transcript:\n{{ input.transcript }}\nReturn a 1-2 sentence summary and a severity from low|medium|high.",
        },
        output: { mode: "object", schema: task.outputSchema },
      },
    ],
  };
}

export type Draft = (options: LanguageModelV4CallOptions) => unknown;

/**
 * The scripted planner of the seed's "Inspecting Compile Stages": turn 1 runs bash, then each turn
 * submits the next draft (the last one repeats). Every call is counted.
 */
export function scriptedPlanner(drafts: Draft[] = [seedLwirFor]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "openai.responses",
    modelId: "gpt-5",
    doGenerate: async (options) => {
      const done = toolResults(options);
      const turn = done.length + 1;
      if (turn === 1) {
        return result([
          {
            type: "tool-call",
            toolCallId: "call-bash-1",
            toolName: "bash",
            input: JSON.stringify({ command: "mkdir -p drafts && echo '{}' > drafts/lwir.json && ls drafts" }),
          },
        ]);
      }
      const draft = (drafts[Math.min(turn - 2, drafts.length - 1)] as Draft)(options);
      return result([
        { type: "tool-call", toolCallId: `call-submit-${turn}`, toolName: "submit_lwir", input: JSON.stringify({ lwir: draft }) },
      ]);
    },
  });
}

/** A worker that answers the summarize step. */
export function scriptedWorker(
  answer: unknown = { summary: "The customer cannot log in since Monday.", severity: "high" },
): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    doGenerate: async () => result([{ type: "text", text: JSON.stringify(answer) }]),
  });
}

/** Resolves the planner's model to `planner` and every execution slot to `worker`. */
export function resolverFor(planner: MockLanguageModelV4, worker: MockLanguageModelV4): ModelResolver {
  return { resolve: (request) => ({ model: request.role === "planner" ? planner : worker, offline: false }) };
}
