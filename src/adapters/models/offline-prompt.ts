import type { LanguageModelV4Prompt } from "@ai-sdk/provider";

/** A tool result the model was shown, in the order it was shown. */
export type ShownToolResult = { readonly toolName: string; readonly value: unknown };

/** Every text part of a prompt (system, user, assistant), joined. */
export function promptText(prompt: LanguageModelV4Prompt): string {
  const parts: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === "string") parts.push(message.content);
    else for (const part of message.content) if (part.type === "text") parts.push(part.text);
  }
  return parts.join("\n");
}

/** The tool results in a prompt, with their JSON or text value unwrapped. */
export function toolResultsOf(prompt: LanguageModelV4Prompt): ShownToolResult[] {
  const results: ShownToolResult[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output as { type?: string; value?: unknown };
      results.push({ toolName: part.toolName, value: output.type === "json" || output.type === "text" ? output.value : output });
    }
  }
  return results;
}

/** A heredoc terminator that does not occur in the text (so the text goes through verbatim). */
export function heredoc(text: string): string {
  let marker = "EOF";
  for (let n = 1; text.split("\n").some((line) => line.trim() === marker); n++) marker = `EOF${n}`;
  return marker;
}

/**
 * A bash command that writes `content` to `path` byte for byte (a heredoc always ends in a newline,
 * so text without a final newline goes through `printf`), so that `sha256sum` of the file is the
 * digest of the content.
 */
export function writeFileCommand(path: string, content: string): string {
  const end = heredoc(content);
  if (content.endsWith("\n")) return `cat > ${path} <<'${end}'\n${content}${end}`;
  return `printf '%s' "$(cat <<'${end}'\n${content}\n${end}\n)" > ${path}`;
}
