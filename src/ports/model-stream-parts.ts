import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from "@ai-sdk/provider";

/**
 * How a generate-shaped model result reads as a stream, named once for both sides: the harness
 * replays a recorded result as these parts (`src/harness/model-stream.ts`), and a model that only
 * computes whole answers (the offline model, the test models) streams them the same way, without
 * importing the harness. Pure data over `@ai-sdk/provider` types.
 */

/**
 * The parts a live stream carrying `result` would have had, in content order.
 *
 * @example
 * const stream = simulateReadableStream({ chunks: streamPartsOf(await model.doGenerate(options)) });
 */
export function streamPartsOf(result: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: result.warnings ?? [] }];
  if (result.response) {
    const { id, timestamp, modelId } = result.response;
    parts.push({
      type: "response-metadata",
      ...(id !== undefined ? { id } : {}),
      ...(timestamp ? { timestamp } : {}),
      ...(modelId ? { modelId } : {}),
    });
  }
  result.content.forEach((part, index) => {
    const id = String(index);
    if (part.type === "text" || part.type === "reasoning") {
      const meta = part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
      // The AI SDK keeps the last providerMetadata it saw for a block; carrying it on start and end keeps it.
      parts.push({ type: `${part.type}-start`, id, ...meta });
      if (part.text.length > 0) parts.push({ type: `${part.type}-delta`, id, delta: part.text });
      if (part.type === "text" && part.citations) parts.push({ type: "text-end", id, citations: part.citations, ...meta });
      else parts.push({ type: `${part.type}-end`, id, ...meta });
      return;
    }
    parts.push(part);
  });
  parts.push({
    type: "finish",
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
  });
  return parts;
}
