import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { streamPartsOf } from "../../ports/model-stream-parts.ts";
import { BASH_TOOL, extractPlanTask, SUBMIT_FIX_TOOL, SUBMIT_LWIR_TOOL as SUBMIT_TOOL } from "../../ports/planner-protocol.ts";
import { skillFilePath } from "../../ports/skill-files.ts";
import { offlineFixerTurn } from "./offline-fixer.ts";
import { offlinePlan } from "./offline-plan.ts";
import { promptText, toolResultsOf, writeFileCommand } from "./offline-prompt.ts";
import { shownValues } from "./offline-prompt-values.ts";
import { authoredDraft, codeFilesOf, draftFromSkills, skillsNamedIn } from "./offline-skill-plan.ts";
import { sampleFromSchema } from "./sample-from-schema.ts";

export const OFFLINE_PROVIDER = "little.offline";

/**
 * The offline model: deterministic, no network, clearly labelled (`provider: "little.offline"`,
 * and `offline: true` in `harness.model.responded`). As a planner it drafts LWIR in bash, then
 * submits it (the definition's own `plan` when it states one; else, when the prompt lists skills,
 * it reads them first and uses an LWIR draft a skill carries: see offline-skill-plan.ts; else the
 * plan offline-plan.ts builds from the snapshot's tools); as a fixer it submits a repair from a fixed repertoire
 * (offline-fixer.ts); as a worker it answers a value that satisfies the requested JSON Schema
 * (taking fields the prompt shows by name, placeholders like `"offline:noteId"` for the rest), or text.
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
    const tools = (options.tools ?? []).map((t) => t.name);
    const content = tools.includes(SUBMIT_TOOL)
      ? this.plannerTurn(options.prompt, text, turn)
      : tools.includes(SUBMIT_FIX_TOOL)
        ? offlineFixerTurn(options.prompt, text, turn)
        : this.workerAnswer(options, text);
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

  /** Its doGenerate answer as stream parts: the offline model takes the same streaming path as a provider. */
  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const parts = streamPartsOf(await this.doGenerate(options));
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }

  private plannerTurn(prompt: LanguageModelV4Prompt, text: string, turn: number): LanguageModelV4Content[] {
    const task = extractPlanTask(text);
    if (!task) return [{ type: "text", text: "No <plan-task> block in the prompt; nothing to plan." }];
    const call = (toolName: string, input: unknown): LanguageModelV4Content[] => [
      { type: "tool-call", toolCallId: `offline-call-${turn}`, toolName, input: JSON.stringify(input) },
    ];
    // Skills first, as an agent would: the system prompt says where each one is.
    const skills = skillsNamedIn(systemText(prompt));
    const bash = toolResultsOf(prompt).filter((r) => r.toolName === BASH_TOOL);
    if (skills.length > 0 && bash.length === 0) {
      return call(BASH_TOOL, { command: `cat ${skills.map(skillFilePath).join(" ")}` });
    }
    const skillText = skills.length > 0 ? String((bash[0]?.value as { stdout?: unknown } | undefined)?.stdout ?? "") : "";
    // The author's own plan first, then a skill's draft, then one built from the snapshot's tools.
    const lwir = authoredDraft(task) ?? draftFromSkills(skillText, task) ?? offlinePlan(task);
    if (bash.length < (skills.length > 0 ? 2 : 1)) return call(BASH_TOOL, { command: draftCommand(lwir) });
    const used = toolResultsOf(prompt).map((r) => r.toolName);
    if (!used.includes(SUBMIT_TOOL) || lastSubmitRejected(prompt)) return call(SUBMIT_TOOL, { lwir });
    return [{ type: "text", text: "Submitted the LWIR." }];
  }

  private workerAnswer(options: LanguageModelV4CallOptions, text: string): LanguageModelV4Content[] {
    const format = options.responseFormat;
    if (format?.type === "json") {
      const seed = lastUserText(options.prompt) || text;
      // Values the prompt shows by name (the input, a tool's result) are answered as shown, not invented.
      const value = sampleFromSchema(format.schema as Record<string, unknown> | undefined, seed, "$", shownValues(seed));
      return [{ type: "text", text: JSON.stringify(value) }];
    }
    return [{ type: "text", text: `Offline answer: ${(lastUserText(options.prompt) || text).replace(/\s+/g, " ").trim().slice(0, 200)}` }];
  }
}

/** The system messages only: where the harness lists the skills (the task may quote any text). */
function systemText(prompt: LanguageModelV4Prompt): string {
  return prompt.map((m) => (m.role === "system" ? m.content : "")).join("\n");
}

/** Writes the draft (and its code files, hashed as the prompt says) to scratch and checks it parses. */
function draftCommand(lwir: Record<string, unknown>): string {
  const files = Object.entries(codeFilesOf(lwir));
  const writeFiles = files.map(([name, content]) => {
    const dir = name.includes("/") ? `drafts/files/${name.slice(0, name.lastIndexOf("/"))}` : "drafts/files";
    return `mkdir -p ${dir}\n${writeFileCommand(`drafts/files/${name}`, content)}\n`;
  });
  const hash = files.length > 0 ? `sha256sum ${files.map(([name]) => `drafts/files/${name}`).join(" ")}\n` : "";
  return `${writeFiles.join("")}${hash}mkdir -p drafts && cat > drafts/lwir.json <<'LWIR'\n${JSON.stringify(lwir, null, 2)}\nLWIR\njq -e '.steps | length' drafts/lwir.json`;
}

function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    return message.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  }
  return "";
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
