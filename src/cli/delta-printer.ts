import type { ModelDelta } from "../client/index.ts";
import type { Paint } from "./output.ts";

/**
 * Prints live model output (`little events <run-id> --follow --deltas`) as running text: a header
 * line when a call's channel starts (`▸ summarize call 1 text`), then only what is new. The text
 * so far that a reconnection sends again is recognised by its offset and not printed twice; a
 * retried attempt (its text starts over) gets a fresh header.
 */
export class DeltaPrinter {
  private readonly texts = new Map<string, string>();
  private open: string | null = null;
  private readonly write: (text: string) => void;
  private readonly paint: Paint;

  constructor(write: (text: string) => void, paint: Paint) {
    this.write = write;
    this.paint = paint;
  }

  delta(delta: ModelDelta): void {
    const key = `${delta.callId}\u0000${delta.channel}`;
    const before = this.texts.get(key) ?? "";
    const whole = before.slice(0, delta.offset) + delta.text;
    this.texts.set(key, whole);
    if (whole.startsWith(before) && this.open === key) {
      this.write(whole.slice(before.length));
      return;
    }
    this.endLine();
    const who = delta.stepPath ?? delta.role;
    this.write(`${this.paint("dim", `      ▸ ${who} call ${delta.call} ${delta.channel}:`)} ${whole}`);
    this.open = key;
  }

  /** Before an event line: ends the running text's line. */
  endLine(): void {
    if (this.open === null) return;
    this.write("\n");
    this.open = null;
  }
}
