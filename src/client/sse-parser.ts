/**
 * A Server-Sent Events parser (the WHATWG "event stream interpretation"), fed text chunks as they
 * arrive. Lines end in CRLF, LF or CR, even split across chunks; lines starting with ":" are
 * comments; `data` lines join with "\n"; a message is dispatched at a blank line, so a message cut
 * off by a dropped connection is never dispatched.
 */
export type SseMessage = { readonly id: string | undefined; readonly event: string; readonly data: string };

export class SseParser {
  /** The last `id` seen, carried across messages as the spec says (for `Last-Event-ID`). */
  lastEventId: string | undefined;
  /** The reconnection delay the server asked for with `retry:`, in milliseconds. */
  retryMs: number | undefined;
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private sawData = false;

  /** Feeds a chunk; returns the messages it completed. */
  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (char !== "\n" && char !== "\r") continue;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (char === "\r" && i === this.buffer.length - 1) break;
      const message = this.line(this.buffer.slice(start, i));
      if (message) messages.push(message);
      if (char === "\r" && this.buffer[i + 1] === "\n") i++;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return messages;
  }

  /** The stream ended: a pending CR still ends its line, but an unterminated message is dropped. */
  end(): SseMessage[] {
    const messages: SseMessage[] = [];
    if (this.buffer.endsWith("\r")) {
      const message = this.line(this.buffer.slice(0, -1));
      if (message) messages.push(message);
    }
    this.buffer = "";
    this.reset();
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        this.sawData = true;
        break;
      case "event":
        this.event = value;
        break;
      case "id":
        if (!value.includes("\0")) this.lastEventId = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
    }
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const message = this.sawData ? { id: this.lastEventId, event: this.event || "message", data: this.data.join("\n") } : undefined;
    this.reset();
    return message;
  }

  private reset(): void {
    this.data = [];
    this.event = "";
    this.sawData = false;
  }
}
