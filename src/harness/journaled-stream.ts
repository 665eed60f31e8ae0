import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { CallTimer } from "./call-timer.ts";
import { StreamAccumulator } from "./model-stream.ts";

/** What the journal does when the live stream ends. */
export type StreamJournal = {
  /** The stream finished: record the answer durably. Thrown errors fail the stream (nothing is recorded). */
  readonly answered: (result: LanguageModelV4GenerateResult) => Promise<void>;
  /** The stream failed or was cut: record the failure (best effort) and hand back the error to raise. */
  readonly failed: (error: unknown) => Promise<unknown>;
};

/**
 * Passes a live model stream through while folding it into the answer to record, which is written
 * when the stream ends (the "flush"): a stream cut before its `finish` part is never recorded, so
 * the resume re-issues the call.
 *
 * Text and reasoning deltas flow at once. From the first other part on (a tool call, a file, the
 * finish), everything is held until the answer is durable: `streamText` runs a tool as soon as its
 * call arrives, and a tool must never start before the model call that asked for it is in the log
 * (the order replay relies on). Holding the rest, not just the tool calls, keeps content order.
 */
export function journaledStream(
  source: ReadableStream<LanguageModelV4StreamPart>,
  timer: CallTimer,
  journal: StreamJournal,
): ReadableStream<LanguageModelV4StreamPart> {
  const reader = source.getReader();
  const answer = new StreamAccumulator();
  let held: LanguageModelV4StreamPart[] | null = null;
  const fail = async (controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>, error: unknown) => {
    timer.clear();
    reader.cancel().catch(() => {});
    controller.error(await journal.failed(timer.explain(error)));
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      for (;;) {
        let next: ReadableStreamReadResult<LanguageModelV4StreamPart>;
        try {
          next = await timer.race(reader.read());
        } catch (error) {
          return fail(controller, error);
        }
        if (next.done) {
          timer.clear();
          if (!answer.finished) return fail(controller, new Error("The model's stream ended before its finish part"));
          try {
            await journal.answered(answer.result());
          } catch (error) {
            // A failed write of the answer is not a model failure: the slice fails, the resume re-issues the call.
            controller.error(error);
            return;
          }
          for (const part of held ?? []) controller.enqueue(part);
          controller.close();
          return;
        }
        timer.touch();
        const part = next.value;
        if (part.type === "error") return fail(controller, part.error);
        answer.add(part);
        if (held === null && !FLOWING.has(part.type)) held = [];
        if (held) {
          held.push(part);
          continue;
        }
        controller.enqueue(part);
        return;
      }
    },
    cancel(reason) {
      timer.clear();
      return reader.cancel(reason);
    },
  });
}

/** Parts with no effect beyond showing progress: these stream through before the answer is recorded. */
const FLOWING = new Set<LanguageModelV4StreamPart["type"]>([
  "stream-start",
  "response-metadata",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-end",
  "ping",
  "raw",
]);
