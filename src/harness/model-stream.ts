import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  SharedV4ProviderMetadata,
} from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { streamPartsOf } from "../ports/model-stream-parts.ts";

/**
 * One recorded shape for streamed and generated calls: a streamed answer is folded into the
 * generate-shaped result (`harness.model.responded.response` is the same either way), and a
 * recorded result is played back as stream parts. So a history recorded with `generateText`
 * replays under `streamText`, and the log does not depend on how the call was made.
 */
export function streamOfResult(result: LanguageModelV4GenerateResult): LanguageModelV4StreamResult {
  // No delays: a replayed call answers at once (TOOLCHAIN.md, "Journaling model and tool calls").
  return { stream: simulateReadableStream({ chunks: streamPartsOf(result), initialDelayInMs: null, chunkDelayInMs: null }) };
}

/**
 * Folds a live stream's parts into the generate-shaped result that is recorded. Text and
 * reasoning blocks are joined by id in the order they opened, keeping the last providerMetadata
 * seen (as the AI SDK does when it builds the next turn's prompt, so a replay builds the same).
 */
export class StreamAccumulator {
  private readonly content: LanguageModelV4Content[] = [];
  private readonly open = new Map<string, number>();
  private warnings: LanguageModelV4GenerateResult["warnings"] = [];
  private response: { id?: string; timestamp?: Date; modelId?: string } | undefined;
  private finish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined;

  /** True once the stream's `finish` part arrived: a stream cut before it is never recorded. */
  get finished(): boolean {
    return this.finish !== undefined;
  }

  add(part: LanguageModelV4StreamPart): void {
    switch (part.type) {
      case "text-start":
      case "text-delta":
      case "text-end":
        this.block("text", part.id, part.type === "text-delta" ? part.delta : "", part.providerMetadata);
        if (part.type === "text-end") {
          const index = this.open.get(`text:${part.id}`);
          const block = index === undefined ? undefined : this.content[index];
          if (block?.type === "text" && part.citations) block.citations = part.citations;
          this.open.delete(`text:${part.id}`);
        }
        return;
      case "reasoning-start":
      case "reasoning-delta":
      case "reasoning-end":
        this.block("reasoning", part.id, part.type === "reasoning-delta" ? part.delta : "", part.providerMetadata);
        if (part.type === "reasoning-end") this.open.delete(`reasoning:${part.id}`);
        return;
      case "stream-start":
        this.warnings = part.warnings;
        return;
      case "response-metadata": {
        const { type: _type, ...metadata } = part;
        this.response = { ...this.response, ...metadata };
        return;
      }
      case "finish":
        this.finish = part;
        return;
      // Input deltas end in a full `tool-call` part; pings, raw chunks and errors are not content.
      case "tool-input-start":
      case "tool-input-delta":
      case "tool-input-end":
      case "ping":
      case "raw":
      case "error":
        return;
      default:
        this.content.push(part);
    }
  }

  /** The recorded result; call only when {@link finished}. */
  result(): LanguageModelV4GenerateResult {
    const finish = this.finish;
    if (!finish) throw new Error("the stream has not finished");
    return {
      content: this.content,
      finishReason: finish.finishReason,
      usage: finish.usage,
      ...(finish.providerMetadata ? { providerMetadata: finish.providerMetadata } : {}),
      ...(this.response ? { response: this.response } : {}),
      warnings: this.warnings,
    };
  }

  private block(type: "text" | "reasoning", id: string, delta: string, providerMetadata: SharedV4ProviderMetadata | undefined): void {
    const key = `${type}:${id}`;
    let index = this.open.get(key);
    if (index === undefined) {
      index = this.content.push({ type, text: "" }) - 1;
      this.open.set(key, index);
    }
    const block = this.content[index] as { text: string; providerMetadata?: SharedV4ProviderMetadata };
    block.text += delta;
    if (providerMetadata != null) block.providerMetadata = providerMetadata;
  }
}
