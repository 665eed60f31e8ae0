import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { type Digest, digestJson } from "../identity/digest.ts";
import { decodeTagged, encodeTagged } from "../identity/tagged-json.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import type { RecordedError, TokenUsage } from "../ports/run-events.ts";
import { NonDeterministicReplayError } from "../sdk/errors/non-deterministic-replay-error.ts";
import type { ModelPricing } from "../sdk/model.ts";
import { appendEvents, assertSliceTime, type HarnessContext, type SessionCursor } from "./harness-context.ts";

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

/**
 * Wraps a model so every call is journaled: `harness.model.called` (with the request hash) before,
 * `harness.model.responded` after. On replay a call with a recorded response is answered from the
 * log without calling the model; if its request hash differs the run is non-deterministic. A call
 * that was in flight (called, never answered) is issued again. Retriable provider errors (429,
 * 5xx) are retried with backoff, each failure recorded.
 */
export function durableModel(base: CallableModel, ctx: HarnessContext, cursor: SessionCursor, slot: ModelSlotRef): LanguageModelV4 {
  return wrapLanguageModel({
    model: base,
    middleware: {
      specificationVersion: "v4",
      wrapGenerate: async ({ doGenerate, params }) => {
        if (cursor.fatal) throw cursor.fatal.error;
        const { callId, turn } = cursor.nextModelCall();
        const requestHash = requestHashOf(params);
        const record = ctx.journal.modelCall(callId);
        if (record?.called && record.called.requestHash !== requestHash) {
          throw new NonDeterministicReplayError(callId, record.called.requestHash, requestHash);
        }
        if (record?.responded) return decodeTagged(record.responded.response) as LanguageModelV4GenerateResult;
        const lastFailure = record?.failures[record.failures.length - 1];
        if (lastFailure && !lastFailure.error.retriable) throw recordedToError(lastFailure.error);
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
        for (let attempt = (record?.failures.length ?? 0) + 1; ; attempt++) {
          let result: LanguageModelV4GenerateResult;
          try {
            result = await doGenerate();
          } catch (error) {
            const recorded = toRecordedError(error, attempt < MAX_ATTEMPTS);
            await appendEvents(ctx, [{ type: "harness.model.failed", payload: { sessionId: cursor.sessionId, callId, error: recorded } }]);
            if (!recorded.retriable) throw error;
            await ctx.sleep(250 * 2 ** (attempt - 1));
            assertSliceTime(ctx);
            continue;
          }
          // Outside the try: a failed write of the answer is not a model failure. It propagates, the
          // slice fails, and the resume re-issues this call (still in flight: called, no answer).
          const response = encodeTagged(recordableResult(result));
          await appendEvents(ctx, [
            {
              type: "harness.model.responded",
              payload: {
                sessionId: cursor.sessionId,
                callId,
                response,
                usage: usageOf(result, slot.offline ? undefined : slot.pricing),
                model: { providerId: slot.providerId, modelId: slot.modelId, offline: slot.offline },
              },
            },
          ]);
          return decodeTagged(response) as LanguageModelV4GenerateResult;
        }
      },
    },
  });
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
  const e = error as { name?: string; message?: string; isRetryable?: boolean; statusCode?: number };
  const status = typeof e?.statusCode === "number" ? e.statusCode : undefined;
  const transient = e?.isRetryable === true || status === 429 || (status !== undefined && status >= 500);
  return { name: e?.name ?? "Error", message: e?.message ?? String(error), retriable: mayRetry && transient };
}

function recordedToError(recorded: RecordedError): Error {
  const error = new Error(recorded.message);
  error.name = recorded.name;
  return error;
}
