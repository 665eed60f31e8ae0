/**
 * Server-Sent Events framing, for the page's reader of a run's event stream: messages end with a
 * blank line; `data:` lines carry the JSON (joined with newlines when there are several);
 * comments (`:`), `retry:`, `id:` and `event:` lines are not needed (the event carries its seq and
 * type). Pure, so the framing is tested without a browser.
 */

/**
 * Splits what has arrived so far into complete messages' data and the unfinished rest.
 *
 * @example
 * splitSse("data: {\"seq\":1}\n\ndata: {\"se") // { data: ['{"seq":1}'], rest: 'data: {"se' }
 */
export function splitSse(buffer: string): { data: string[]; rest: string } {
  const { messages, rest } = splitSseMessages(buffer);
  return { data: messages.map((m) => m.data), rest };
}

/**
 * As {@link splitSse}, with each message's `event:` name ("message" when it has none): the run
 * stream's `delta` messages (live model output) are told apart from its events by it.
 *
 * @example
 * splitSseMessages("event: delta\ndata: {}\n\n") // { messages: [{ event: "delta", data: "{}" }], rest: "" }
 */
export function splitSseMessages(buffer: string): { messages: { event: string; data: string }[]; rest: string } {
  const text = buffer.replaceAll("\r\n", "\n");
  const messages: { event: string; data: string }[] = [];
  let rest = text;
  let end = rest.indexOf("\n\n");
  while (end >= 0) {
    const lines = rest.slice(0, end).split("\n");
    const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).replace(/^ /, ""));
    const event =
      lines
        .find((line) => line.startsWith("event:"))
        ?.slice(6)
        .trim() || "message";
    if (data.length > 0) messages.push({ event, data: data.join("\n") });
    rest = rest.slice(end + 2);
    end = rest.indexOf("\n\n");
  }
  return { messages, rest };
}
