/**
 * @module A model slot's shared limits (docs/flow-control.md, "Model limits"): every live attempt
 * of a call asks the (tenant, provider, model)'s limiter first and waits while it says no; a
 * provider's 429 or 503 with `Retry-After` pauses the model for every run until then.
 *
 * It wraps the provider's model *inside* the durable wrapper (durable-model.ts), so a replayed call
 * never asks (it makes no call) and every retry of a live one does.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { Clock } from "../ports/clock.ts";
import type { ModelCallTicket, ModelLimiters } from "../ports/model-limiter.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import type { ModelLimits } from "../sdk/model.ts";
import { backoffMs } from "./model-backoff.ts";

/** How long an unreleased call counts in flight (a crash mid-call frees its place after this). */
const CALL_LEASE_MS = 300_000;
/** The longest single wait between two asks (a cancel is noticed at least this often). */
const MAX_WAIT_STEP_MS = 1_000;

export type ModelLimitScope = {
  readonly limiters: ModelLimiters;
  readonly tenant: string;
  readonly clock: Clock;
  readonly sleep: (ms: number) => Promise<void>;
  /** Tells the run a call waits (`waitReason: "rate_limit"`) and goes again; absent: the wait is not reported. */
  readonly report?: RateLimitReport;
};

/** Where a call's waits are told to the run (the engine logs them: src/engine/steps/rate-limit-wait.ts). */
export type RateLimitReport = {
  /** The limiter said no until `until` (its clock); called on every refusal of one wait. */
  readonly waiting: (until: number) => Promise<void>;
  /** The limiter let the call go. */
  readonly proceeding: () => Promise<void>;
};

/**
 * The model, each live attempt gated by its shared limits.
 *
 * @example
 * const limited = rateLimitedModel(model, { providerId: "openai.responses", modelId: "gpt-4o-mini" }, { requestsPerMinute: 120 }, scope);
 */
export function rateLimitedModel(
  model: CallableModel,
  identity: { readonly providerId: string; readonly modelId: string },
  limits: ModelLimits,
  scope: ModelLimitScope,
): CallableModel {
  const ticketOf = (): ModelCallTicket => ({ tenant: scope.tenant, ...identity, callKey: crypto.randomUUID() });
  return wrapLanguageModel({
    model: model as LanguageModelV4,
    middleware: {
      specificationVersion: "v4",
      wrapGenerate: async ({ doGenerate, params }) => {
        const ticket = ticketOf();
        await admit(scope, ticket, limits, params.abortSignal);
        try {
          const result = await doGenerate();
          await release(scope, ticket, result.usage?.inputTokens?.total, result.usage?.outputTokens?.total);
          return result;
        } catch (error) {
          await refused(scope, ticket, error);
          throw error;
        }
      },
      wrapStream: async ({ doStream, params }) => {
        const ticket = ticketOf();
        await admit(scope, ticket, limits, params.abortSignal);
        let result: Awaited<ReturnType<typeof doStream>>;
        try {
          result = await doStream();
        } catch (error) {
          await refused(scope, ticket, error);
          throw error;
        }
        // In flight until the stream ends: released with the usage of its finish part.
        let tokens: { input?: number; output?: number } = {};
        let released = false;
        const done = () => {
          if (released) return Promise.resolve();
          released = true;
          return release(scope, ticket, tokens.input, tokens.output);
        };
        const stream = result.stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform(part, controller) {
              if (part.type === "finish") tokens = { input: part.usage.inputTokens.total, output: part.usage.outputTokens.total };
              controller.enqueue(part);
            },
            flush: () => done(),
            cancel: () => done(),
          }),
        );
        return { ...result, stream };
      },
    },
  }) as CallableModel;
}

/**
 * Asks until the limiter grants the call, sleeping until the time it names (at most a second at a
 * time); each refusal and the grant are reported, so the run shows the wait.
 */
async function admit(scope: ModelLimitScope, ticket: ModelCallTicket, limits: ModelLimits, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const permit = await scope.limiters.acquire(ticket, limits, CALL_LEASE_MS);
    if (permit.granted) return scope.report?.proceeding();
    signal?.throwIfAborted();
    await scope.report?.waiting(permit.retryAt);
    await scope.sleep(Math.min(MAX_WAIT_STEP_MS, Math.max(1, permit.retryAt - scope.clock.now())));
    signal?.throwIfAborted();
  }
}

async function release(scope: ModelLimitScope, ticket: ModelCallTicket, input?: number, output?: number): Promise<void> {
  await scope.limiters.release(ticket, (input ?? 0) + (output ?? 0)).catch(() => undefined);
}

/** A failed attempt gives its place back; a 429 or 503 that names a wait pauses the model for every run. */
async function refused(scope: ModelLimitScope, ticket: ModelCallTicket, error: unknown): Promise<void> {
  await release(scope, ticket);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (status !== 429 && status !== 503) return;
  const headers = (error as { responseHeaders?: Record<string, string> } | null)?.responseHeaders ?? {};
  const named = Object.keys(headers).some((k) => k.toLowerCase() === "retry-after" || k.toLowerCase() === "retry-after-ms");
  if (!named) return;
  const now = scope.clock.now();
  await scope.limiters.pause(ticket, now + backoffMs(error, 1, now)).catch(() => undefined);
}
