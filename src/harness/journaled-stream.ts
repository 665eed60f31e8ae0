import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { CallTimer } from "./call-timer.ts";
import { StreamAccumulator } from "./model-stream.ts";

/** One live attempt of a streamed call: the provider's stream and the idle timer watching it. */
export type LiveAttempt = { readonly stream: ReadableStream<LanguageModelV4StreamPart>; readonly timer: CallTimer };

/** What the journal does when the live stream ends. */
export type StreamJournal = {
  /** The stream finished: record the answer durably. Thrown errors fail the stream (nothing is recorded). */
  readonly answered: (result: LanguageModelV4GenerateResult) => Promise<void>;
  /**
   * The attempt failed or was cut. `delivered`: some of its parts already reached the loop, so it
   * can't be retried. Answers a fresh attempt to continue with, or the error to raise.
   */
  readonly failed: (error: unknown, delivered: boolean) => Promise<{ readonly retry: LiveAttempt } | { readonly error: unknown }>;
  /** Sees every part as the provider streams it, held or not (live output); must not throw or wait. */
  readonly progress?: (part: LanguageModelV4StreamPart) => void;
};

/**
 * Passes a live model stream through while folding it into the answer to record, which is written
 * when the stream ends (the "flush"): a stream cut before its `finish` part is never recorded, so
 * the resume re-issues the call.
 *
 * Text and reasoning deltas flow at once (with the stream's opening metadata before the first of
 * them). From the first other part on (a tool call, a file, the finish), everything is held until
 * the answer is durable: `streamText` runs a tool as soon as its call arrives, and a tool must
 * never start before the model call that asked for it is in the log (the order replay relies on).
 * Holding the rest, not just the tool calls, keeps content order. An attempt that fails before any
 * part reached the loop can be replaced by a fresh one, as if it had failed before streaming.
 */
export function journaledStream(first: LiveAttempt, journal: StreamJournal): ReadableStream<LanguageModelV4StreamPart> {
  let attempt = first;
  let reader = first.stream.getReader();
  let answer = new StreamAccumulator();
  /** Parts read but not passed on: the opening metadata, or everything once holding began. */
  let pending: LanguageModelV4StreamPart[] = [];
  let holding = false;
  let delivered = false;

  const settleFailure = async (error: unknown): Promise<{ error: unknown } | null> => {
    attempt.timer.clear();
    reader.cancel().catch(() => {});
    const next = await journal.failed(attempt.timer.explain(error), delivered);
    if ("error" in next) return next;
    attempt = next.retry;
    reader = attempt.stream.getReader();
    answer = new StreamAccumulator();
    pending = [];
    holding = false;
    return null;
  };

  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      for (;;) {
        let next: ReadableStreamReadResult<LanguageModelV4StreamPart>;
        try {
          next = await attempt.timer.race(reader.read());
        } catch (error) {
          const failure = await settleFailure(error);
          if (failure) return controller.error(failure.error);
          continue;
        }
        if (next.done) {
          attempt.timer.clear();
          if (!answer.finished) {
            const failure = await settleFailure(new Error("The model's stream ended before its finish part"));
            if (failure) return controller.error(failure.error);
            continue;
          }
          try {
            await journal.answered(answer.result());
          } catch (error) {
            // A failed write of the answer is not a model failure: the slice fails, the resume re-issues the call.
            return controller.error(error);
          }
          for (const part of pending) controller.enqueue(part);
          return controller.close();
        }
        attempt.timer.touch();
        const part = next.value;
        if (part.type === "error") {
          const failure = await settleFailure(part.error);
          if (failure) return controller.error(failure.error);
          continue;
        }
        answer.add(part);
        journal.progress?.(part);
        if (!holding && FLOWING.has(part.type)) {
          for (const early of pending) controller.enqueue(early);
          pending = [];
          controller.enqueue(part);
          delivered = true;
          return;
        }
        if (!PREAMBLE.has(part.type)) holding = true;
        pending.push(part);
      }
    },
    cancel(reason) {
      attempt.timer.clear();
      return reader.cancel(reason);
    },
  });
}

/** Progress with no effect beyond showing it: passed on before the answer is recorded. */
const FLOWING = new Set<LanguageModelV4StreamPart["type"]>([
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-end",
]);

/** Opening metadata and keep-alives: passed on with the first progress part, not alone. */
const PREAMBLE = new Set<LanguageModelV4StreamPart["type"]>(["stream-start", "response-metadata", "ping", "raw"]);
