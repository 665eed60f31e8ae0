import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { AISDKError } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { decodeTagged, encodeTagged } from "../identity/tagged-json.ts";
import { type Digest, digestJson } from "../json/digest.ts";
import type { LiveModelCall } from "../ports/live-output.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import type { RecordedError, TokenUsage } from "../ports/run-events.ts";
import { ModelProtocolError } from "../sdk/errors/model-protocol-error.ts";
import { ModelTimeoutError } from "../sdk/errors/model-timeout-error.ts";
import { NonDeterministicReplayError } from "../sdk/errors/non-deterministic-replay-error.ts";
import type { ModelPricing } from "../sdk/model.ts";
import { CallTimer } from "./call-timer.ts";
import { appendEvents, assertSliceTime, type HarnessContext, type SessionCursor, SliceYieldSignal } from "./harness-context.ts";
import { journaledStream, type LiveAttempt } from "./journaled-stream.ts";
import { callProgress } from "./live-progress.ts";
import { backoffMs, INLINE_BACKOFF_MAX_MS } from "./model-backoff.ts";
import { streamOfResult } from "./model-stream.ts";
import { assertNotPaused } from "./pause-yield.ts";
import { withSentToolArguments } from "./sent-tool-arguments.ts";

/** Which slot a model call is for, as recorded in its events. */
export type ModelSlotRef = {
  readonly id: string;
  readonly providerId: string;
  readonly modelId: string;
  readonly offline: boolean;
  /** USD per million tokens; the offline model and unpriced slots cost null. */
  readonly pricing?: ModelPricing;
};

const MAX_ATTEMPTS = 3;
/** Idle time after which a model call is abandoned as hung (`LITTLE_MODEL_TIMEOUT_MS` overrides it). */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;

/** Who a session's calls are for, as live output names them (docs/observability.md, "Live model output"). */
export type LiveCallLabel = Pick<LiveModelCall, "role" | "stepPath" | "structured">;

/** Where a journaled call stands before anything live happens. */
type CallStart =
  | { readonly recorded: LanguageModelV4GenerateResult }
  | { readonly recorded?: undefined; readonly callId: string; readonly firstAttempt: number };

/**
 * Wraps a model so every call is journaled: `harness.model.called` (with the request hash) before,
 * `harness.model.responded` after. On replay a call with a recorded response is answered from the
 * log without calling the model; if its request hash differs the run is non-deterministic. A call
 * that was in flight (called, never answered) is issued again. Retriable provider errors (429,
 * 5xx, a timeout) are retried with backoff (model-backoff.ts), each failure recorded.
 *
 * Sessions stream (`streamText`): a live stream passes through and its answer is recorded when it
 * ends (journaled-stream.ts); a recorded answer is played back as a stream (model-stream.ts). The
 * recorded answer has one shape for both ways of calling, so the log does not say which was used.
 * A stream is retried only while none of its parts has reached the loop: after that the call
 * can't be taken back, so a stream that breaks midway records a failure that is not retried.
 */
export function durableModel(
  base: CallableModel,
  ctx: HarnessContext,
  cursor: SessionCursor,
  slot: ModelSlotRef,
  label?: LiveCallLabel,
): LanguageModelV4 {
  const calls = new JournaledCalls(ctx, cursor, slot, ctx.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS, label);
  return wrapLanguageModel({
    model: base,
    middleware: {
      specificationVersion: "v4",
      wrapGenerate: async ({ params: given, model }) => {
        const params = withSentToolArguments(given, ctx.journal, cursor.sessionId);
        const start = await calls.begin(params);
        if (start.recorded) return start.recorded;
        return calls.generateLive(model, params, start.callId, start.firstAttempt);
      },
      wrapStream: async ({ params: given, model }) => {
        const params = withSentToolArguments(given, ctx.journal, cursor.sessionId);
        const start = await calls.begin(params);
        if (start.recorded) return streamOfResult(start.recorded);
        if (GENERATE_ONLY.has(model)) return streamOfResult(await calls.generateLive(model, params, start.callId, start.firstAttempt));
        return calls.streamLive(model, params, start.callId, start.firstAttempt);
      },
    },
  });
}

/** A live stream's attempt: its parts, its timer, and the provider's result around them. */
type OpenedStream = LiveAttempt & { attempt: number; result: LanguageModelV4StreamResult };

/** The journal of one session's model calls: each step of a call as its own method. */
class JournaledCalls {
  private readonly ctx: HarnessContext;
  private readonly cursor: SessionCursor;
  private readonly slot: ModelSlotRef;
  private readonly timeoutMs: number;
  private readonly label: LiveCallLabel;

  constructor(ctx: HarnessContext, cursor: SessionCursor, slot: ModelSlotRef, timeoutMs: number, label?: LiveCallLabel) {
    this.ctx = ctx;
    this.cursor = cursor;
    this.slot = slot;
    this.timeoutMs = timeoutMs;
    this.label = label ?? { role: "worker", stepPath: null, structured: false };
  }

  /** Replays, refuses a changed request, or appends `called` (with the held session start) before the live call. */
  async begin(params: LanguageModelV4CallOptions): Promise<CallStart> {
    const { ctx, cursor, slot } = this;
    if (cursor.fatal) throw cursor.fatal.error;
    const { callId, turn } = cursor.nextModelCall();
    const requestHash = requestHashOf(params);
    const record = ctx.journal.modelCall(callId);
    if (record?.called && record.called.requestHash !== requestHash) {
      throw new NonDeterministicReplayError(callId, record.called.requestHash, requestHash);
    }
    if (record?.responded) return { recorded: decodeTagged(record.responded.response) as LanguageModelV4GenerateResult };
    const lastFailure = record?.failures[record.failures.length - 1];
    if (lastFailure && !lastFailure.error.retriable) throw recordedToError(lastFailure.error);
    assertNotPaused(ctx);
    assertSliceTime(ctx);
    // The session's held `harness.session.started` goes first, in this batch: durable before the call.
    const leading = cursor.takeLeading();
    if (!record?.called) {
      await appendEvents(ctx, [
        ...leading,
        {
          type: "harness.model.called",
          payload: {
            sessionId: cursor.sessionId,
            callId,
            turn,
            requestHash,
            modelSlotId: slot.id,
            providerId: slot.providerId,
            modelId: slot.modelId,
          },
        },
      ]);
    } else if (leading.length > 0) await appendEvents(ctx, leading);
    return { callId, firstAttempt: (record?.failures.length ?? 0) + 1 };
  }

  /**
   * Records a failed attempt; true when it is worth another attempt, after the backoff. A long
   * backoff (a provider's Retry-After) is not slept in the slice: the slice ends and the run wakes
   * when it is over; the resume finds the retriable failure and makes the next attempt.
   */
  async failed(callId: string, error: unknown, attempt: number, mayRetry: boolean): Promise<boolean> {
    const { ctx } = this;
    const recorded = toRecordedError(error, mayRetry && attempt < MAX_ATTEMPTS);
    await appendEvents(ctx, [{ type: "harness.model.failed", payload: { sessionId: this.cursor.sessionId, callId, error: recorded } }]);
    if (!recorded.retriable) return false;
    const wait = backoffMs(error, attempt, ctx.clock.now());
    if (wait > INLINE_BACKOFF_MAX_MS) throw new SliceYieldSignal(ctx.clock.now() + wait);
    await ctx.sleep(wait);
    assertNotPaused(ctx);
    assertSliceTime(ctx);
    return true;
  }

  /** Records the answer; what the loop gets is the decoded record, exactly what a replay gets. */
  async answered(callId: string, result: LanguageModelV4GenerateResult): Promise<LanguageModelV4GenerateResult> {
    const { slot } = this;
    const response = encodeTagged(recordableResult(result));
    await appendEvents(this.ctx, [
      {
        type: "harness.model.responded",
        payload: {
          sessionId: this.cursor.sessionId,
          callId,
          response,
          usage: usageOf(result, slot.offline ? undefined : slot.pricing),
          model: { providerId: slot.providerId, modelId: slot.modelId, offline: slot.offline },
        },
      },
    ]);
    return decodeTagged(response) as LanguageModelV4GenerateResult;
  }

  /** The generate path, also behind a stream for models that implement only doGenerate. */
  async generateLive(
    model: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    callId: string,
    firstAttempt: number,
  ): Promise<LanguageModelV4GenerateResult> {
    for (let attempt = firstAttempt; ; attempt++) {
      const timer = new CallTimer(this.timeoutMs, params.abortSignal);
      let result: LanguageModelV4GenerateResult;
      try {
        result = await timer.race(model.doGenerate({ ...params, abortSignal: timer.signal }));
      } catch (error) {
        const reported = timer.explain(error);
        if (await this.failed(callId, reported, attempt, true)) continue;
        throw reported;
      } finally {
        timer.clear();
      }
      // Outside the try: a failed write of the answer is not a model failure. It propagates, the
      // slice fails, and the resume re-issues this call (still in flight: called, no answer).
      return this.answered(callId, result);
    }
  }

  /**
   * Opens the live stream, retrying failures before it starts (429/5xx, no response in time).
   * A model that turns out not to stream is answered through doGenerate instead.
   */
  async openStream(
    model: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    callId: string,
    firstAttempt: number,
  ): Promise<OpenedStream | { generated: LanguageModelV4GenerateResult }> {
    for (let attempt = firstAttempt; ; attempt++) {
      const timer = new CallTimer(this.timeoutMs, params.abortSignal);
      try {
        const result = await timer.race(model.doStream({ ...params, abortSignal: timer.signal }));
        const notStreamed = jsonAnswerToStream(result.response?.headers);
        if (notStreamed) {
          result.stream.cancel().catch(() => {});
          throw notStreamed;
        }
        return { stream: result.stream, timer, attempt, result };
      } catch (error) {
        timer.clear();
        if (isNotImplemented(error)) {
          GENERATE_ONLY.add(model);
          return { generated: await this.generateLive(model, params, callId, attempt) };
        }
        const reported = timer.explain(error);
        if (await this.failed(callId, reported, attempt, true)) continue;
        throw reported;
      }
    }
  }

  /** A live stream whose answer is recorded when it ends; a failure before any part reached the loop is retried. */
  async streamLive(
    model: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    callId: string,
    firstAttempt: number,
  ): Promise<LanguageModelV4StreamResult> {
    const opened = await this.openStream(model, params, callId, firstAttempt);
    if ("generated" in opened) return streamOfResult(opened.generated);
    let attempt = opened.attempt;
    // Live output: not journaled; each attempt's text starts again (docs/observability.md).
    const progress = callProgress(this.ctx.liveOutput, { ...this.label, sessionId: this.cursor.sessionId, callId, call: this.cursor.turn });
    progress.begin();
    const stream = journaledStream(opened, {
      answered: async (result) => {
        try {
          await this.answered(callId, result);
        } finally {
          progress.end();
        }
      },
      failed: async (error, delivered) => {
        try {
          // Parts already reached the loop: not retried. Else it is retried like a failed request.
          if (!(await this.failed(callId, error, attempt, !delivered))) return ended(progress, { error });
          const next = await this.openStream(model, params, callId, attempt + 1);
          if ("generated" in next) return ended(progress, { error });
          attempt = next.attempt;
          progress.begin();
          return { retry: next };
        } catch (thrown) {
          // A failed write, the slice's time running out (SliceYieldSignal), or the last attempt's error.
          return ended(progress, { error: thrown });
        }
      },
      progress: progress.part,
    });
    return { ...opened.result, stream };
  }
}

/** The call is no longer live (its failure is the answer). */
function ended<T>(progress: { readonly end: () => void }, outcome: T): T {
  progress.end();
  return outcome;
}

/**
 * A streamed request answered with a JSON body (a proxy that buffers, a gateway that ignores
 * `stream: true`): the provider's event-stream parser finds no event in it and the call would read
 * as an empty answer. The body is already the parser's, so it is refused as a protocol error and
 * retried, never recorded as an answer the model did not give.
 */
function jsonAnswerToStream(headers: Record<string, string | undefined> | undefined): ModelProtocolError | undefined {
  const type = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  if (!/\bjson\b/i.test(type) || /event-stream/i.test(type)) return undefined;
  return new ModelProtocolError(
    `a streamed request (stream: true) was answered with a plain JSON body (content-type ${type}), not server-sent events; a proxy or gateway in front of the provider may not pass streams through`,
  );
}

/**
 * Models whose doStream is not implemented (the AI SDK's mock models built with `doGenerate`
 * only, as many tests use). Every provider model streams; these are answered through doGenerate
 * behind a stream, journaled the same way.
 */
const GENERATE_ONLY = new WeakSet<LanguageModelV4>();

function isNotImplemented(error: unknown): boolean {
  return error instanceof Error && error.message === "Not implemented" && !("statusCode" in error);
}

/** The request fields that decide a model's answer; headers and abort signals are left out. */
export function requestHashOf(params: LanguageModelV4CallOptions): Digest {
  const decisive = Object.fromEntries(HASHED_REQUEST_FIELDS.map((field) => [field, params[field]]));
  return digestJson(encodeTagged(decisive));
}

/** Everything in a call that can change the answer (TOOLCHAIN.md, "Journaling model and tool calls"). */
const HASHED_REQUEST_FIELDS = [
  "prompt",
  "tools",
  "toolChoice",
  "responseFormat",
  "providerOptions",
  "maxOutputTokens",
  "temperature",
  "stopSequences",
  "topP",
  "topK",
  "presencePenalty",
  "frequencyPenalty",
  "seed",
  "reasoning",
] as const satisfies readonly (keyof LanguageModelV4CallOptions)[];

function recordableResult(result: LanguageModelV4GenerateResult): unknown {
  return {
    content: result.content,
    structuredOutputText: result.structuredOutputText,
    finishReason: result.finishReason,
    usage: result.usage,
    providerMetadata: result.providerMetadata,
    warnings: (result as { warnings?: unknown }).warnings,
    response: result.response
      ? { id: result.response.id, timestamp: result.response.timestamp, modelId: result.response.modelId }
      : undefined,
  };
}

/** Token counts from a V4 usage record (missing counts are 0), priced when the slot has pricing. */
export function usageOf(result: LanguageModelV4GenerateResult, pricing?: ModelPricing): TokenUsage {
  const input = result.usage?.inputTokens?.total ?? 0;
  const output = result.usage?.outputTokens?.total ?? 0;
  const costUsd = pricing ? (input * pricing.inputPerMillionTokens + output * pricing.outputPerMillionTokens) / 1_000_000 : null;
  return { inputTokens: input, outputTokens: output, totalTokens: input + output, costUsd };
}

function toRecordedError(error: unknown, mayRetry: boolean): RecordedError {
  if (error instanceof ModelTimeoutError || error instanceof ModelProtocolError)
    return { name: error.name, code: error.code, message: error.message, retriable: mayRetry };
  const e = error as { name?: string; message?: string; isRetryable?: boolean; statusCode?: number };
  const status = typeof e?.statusCode === "number" ? e.statusCode : undefined;
  const transient = e?.isRetryable === true || status === 429 || (status !== undefined && status >= 500);
  return { name: e?.name ?? "Error", message: e?.message ?? String(error), retriable: mayRetry && transient };
}

/**
 * A recorded failure rebuilt for a replay as what it was live: the named error when it has a
 * code, an AI SDK error when the record carries the SDK's `AI_` name (so `AISDKError.isInstance`
 * recognises it, as it did the live one), else a plain error of that name.
 */
function recordedToError(recorded: RecordedError): Error {
  if (recorded.code === "model_timeout") {
    const timeout = new ModelTimeoutError(0);
    timeout.message = recorded.message;
    return timeout;
  }
  if (recorded.code === "model_protocol_error") {
    const protocol = new ModelProtocolError("");
    protocol.message = recorded.message;
    return protocol;
  }
  // The record holds only the name; every error of `ai` and its providers is named `AI_<Class>`.
  if (recorded.name.startsWith("AI_")) return new AISDKError({ name: recorded.name, message: recorded.message });
  const error = new Error(recorded.message);
  error.name = recorded.name;
  return error;
}
