/**
 * @module What a model sent as a tool call's arguments, put back into the history it is shown
 * next. When the arguments do not parse (cut off at the output limit, not JSON), the AI SDK
 * answers the call with a tool error but replaces the arguments in the history with `{}` (providers
 * want an object there), so the model reads that it called the tool with nothing and repeats the
 * mistake. Here the call's input becomes `{ "unparsedArguments": "<the text it sent>" }`, taken
 * from the journaled answer, so the history says what happened. Deterministic from the journal:
 * a replay rebuilds the same request (and request hash).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { decodeTagged } from "../identity/tagged-json.ts";
import type { Journal } from "./journal.ts";

/** The raw argument text of every tool call this session's recorded answers hold that is not a JSON object. */
function unparsedArguments(journal: Journal, sessionId: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let n = 1; ; n++) {
    const record = journal.modelCall(`${sessionId}/model/${n}`);
    if (!record) return out;
    if (!record.responded) continue;
    const answer = decodeTagged(record.responded.response) as LanguageModelV4GenerateResult;
    for (const part of answer.content ?? []) {
      if (part.type !== "tool-call" || typeof part.input !== "string" || parsesToObject(part.input)) continue;
      out.set(part.toolCallId, part.input);
    }
  }
}

function parsesToObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** `params` with each unparsed tool call's `{}` replaced by what the model sent; the same object when there is none. */
export function withSentToolArguments(params: LanguageModelV4CallOptions, journal: Journal, sessionId: string): LanguageModelV4CallOptions {
  const hasEmpty = params.prompt.some(
    (m) => m.role === "assistant" && m.content.some((p) => p.type === "tool-call" && isEmptyObject(p.input)),
  );
  if (!hasEmpty) return params;
  const sent = unparsedArguments(journal, sessionId);
  if (sent.size === 0) return params;
  const prompt = params.prompt.map((message) => {
    if (message.role !== "assistant") return message;
    const content = message.content.map((part) => {
      if (part.type !== "tool-call" || !isEmptyObject(part.input)) return part;
      const text = sent.get(part.toolCallId);
      return text === undefined ? part : { ...part, input: { unparsedArguments: text } };
    });
    return { ...message, content };
  });
  return { ...params, prompt };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
