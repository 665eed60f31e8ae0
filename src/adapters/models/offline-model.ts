import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
} from "@ai-sdk/provider";
import { extractPlanTask } from "../../harness/planner-prompt.ts";
import { BASH_TOOL, SUBMIT_TOOL } from "../../harness/planner-session.ts";
import { offlinePlan } from "./offline-plan.ts";
import { sampleFromSchema } from "./sample-from-schema.ts";

export const OFFLINE_PROVIDER = "little.offline";

/**
 * The offline model: deterministic, no network, clearly labelled (`provider: "little.offline"`,
 * and `offline: true` in `harness.model.responded`). As a planner it drafts LWIR in bash, then
 * submits it; as a worker it answers a value that satisfies the requested JSON Schema, or text.
 * `latencyMs` makes it slow on purpose, for demos and benchmarks.
 */
export class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId: string;
  readonly supportedUrls = {};
  private readonly latencyMs: number;

  constructor(options: { modelId: string; latencyMs?: number }) {
    this.modelId = options.modelId;
    this.latencyMs = options.latencyMs ?? 0;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const text = promptText(options.prompt);
    const turn = options.prompt.filter((m) => m.role === "assistant").length + 1;
    const isPlanner = (options.tools ?? []).some((t) => t.name === SUBMIT_TOOL);
    const content = isPlanner ? this.plannerTurn(options.prompt, text, turn) : this.workerAnswer(options, text);
    const output = JSON.stringify(content).length;
    return {
      content,
      finishReason: { unified: content.some((c) => c.type === "tool-call") ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: {
          total: Math.ceil(text.length / 4),
          noCache: Math.ceil(text.length / 4),
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: Math.ceil(output / 4), text: Math.ceil(output / 4), reasoning: undefined },
      },
      response: { id: `offline-${turn}`, modelId: this.modelId, timestamp: new Date(0) },
      warnings: [],
    };
  }

  async doStream(): Promise<never> {
    throw new Error("The offline model answers through doGenerate only");
  }

  private plannerTurn(prompt: LanguageModelV4Prompt, text: string, turn: number): LanguageModelV4Content[] {
    const task = extractPlanTask(text);
    if (!task) return [{ type: "text", text: "No <plan-task> block in the prompt; nothing to plan." }];
    const lwir = offlinePlan(task);
    const used = toolResultsIn(prompt);
    if (!used.includes(BASH_TOOL)) {
      const command = `mkdir -p drafts && cat > drafts/lwir.json <<'LWIR'\n${JSON.stringify(lwir, null, 2)}\nLWIR\njq -e '.steps | length' drafts/lwir.json`;
      return [{ type: "tool-call", toolCallId: `offline-call-${turn}`, toolName: BASH_TOOL, input: JSON.stringify({ command }) }];
    }
    if (!used.includes(SUBMIT_TOOL) || lastSubmitRejected(prompt)) {
      return [{ type: "tool-call", toolCallId: `offline-call-${turn}`, toolName: SUBMIT_TOOL, input: JSON.stringify({ lwir }) }];
    }
    return [{ type: "text", text: "Submitted the LWIR." }];
  }

  private workerAnswer(options: LanguageModelV4CallOptions, text: string): LanguageModelV4Content[] {
    const format = options.responseFormat;
    if (format?.type === "json") {
      return [
        {
          type: "text",
          text: JSON.stringify(
            sampleFromSchema(format.schema as Record<string, unknown> | undefined, lastUserText(options.prompt) || text),
          ),
        },
      ];
    }
    return [{ type: "text", text: `Offline answer: ${(lastUserText(options.prompt) || text).replace(/\s+/g, " ").trim().slice(0, 200)}` }];
  }
}

function promptText(prompt: LanguageModelV4Prompt): string {
  const parts: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === "string") parts.push(message.content);
    else for (const part of message.content) if (part.type === "text") parts.push(part.text);
  }
  return parts.join("\n");
}

function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    return message.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  }
  return "";
}

function toolResultsIn(prompt: LanguageModelV4Prompt): string[] {
  const names: string[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") names.push(part.toolName);
  }
  return names;
}

function lastSubmitRejected(prompt: LanguageModelV4Prompt): boolean {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result" && part.toolName === SUBMIT_TOOL) return JSON.stringify(part.output).includes('"accepted":false');
    }
  }
  return false;
}
