/**
 * Model resolvers for tests of a user's own workflows (`little-workflow/testing`): the offline
 * model for every slot, or chosen models per role or slot with the offline model for the rest,
 * and a mock model that answers what the test says.
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { OfflineLanguageModel } from "../adapters/models/offline-model.ts";
import { streamOfResult } from "../harness/model-stream.ts";
import type { CallableModel, ModelRequest, ModelResolver } from "../ports/model-resolver.ts";

/**
 * Every model slot, the planner and the fixer answered by the offline model: deterministic, no
 * network, no key. The planner drafts a plan from the definition; workers answer values that
 * satisfy each step's schema.
 *
 * @example
 * const world = new MemoryWorld({ models: offlineModels() });
 */
export function offlineModels(options: { latencyMs?: number } = {}): ModelResolver {
  return {
    resolve: (request) => ({
      model: new OfflineLanguageModel({ modelId: request.modelId, ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}) }),
      offline: true,
    }),
  };
}

/** Which model answers: by role (`planner`, `worker`, `fixer`), or by model slot id for workers. */
export type ModelChoice = {
  readonly planner?: CallableModel;
  readonly worker?: CallableModel;
  readonly fixer?: CallableModel;
  /** By slot id (e.g. `gpt-4o-mini`); wins over `worker` for that slot. */
  readonly slots?: Readonly<Record<string, CallableModel>>;
};

/**
 * The given models where chosen, the offline model everywhere else.
 *
 * @example
 * const world = new MemoryWorld({ models: modelsFor({ worker: mockModel({ summary: "ok", severity: "low" }) }) });
 */
export function modelsFor(choice: ModelChoice): ModelResolver {
  const offline = offlineModels();
  return {
    resolve: (request: ModelRequest) => {
      const chosen = (request.role === "worker" ? choice.slots?.[request.slotId] : undefined) ?? choice[request.role];
      return chosen ? { model: chosen, offline: false } : offline.resolve(request);
    },
  };
}

/** What a {@link mockModel} answers: text as is, any other value as its JSON. */
export type MockAnswer = unknown | ((call: { readonly prompt: string; readonly index: number }) => unknown);

/** A model that answers in order; the last answer repeats. `calls` holds each call's prompt text. */
export type MockModel = LanguageModelV4 & { readonly calls: readonly string[] };

/**
 * A worker model for tests: answers the given values (or what a function returns for the call),
 * so a step's output is what the test decides. A function answer sees the prompt's text.
 *
 * @example
 * const worker = mockModel({ summary: "Charged twice", severity: "high" });
 * const result = await runWorkflow(summarize, input, { world: new MemoryWorld({ models: modelsFor({ worker }) }) });
 * expect(worker.calls).toHaveLength(1);
 */
export function mockModel(...answers: MockAnswer[]): MockModel {
  if (answers.length === 0) throw new TypeError("mockModel(): give at least one answer");
  const calls: string[] = [];
  const generate = async (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    const prompt = promptOf(options);
    const index = calls.length;
    calls.push(prompt);
    const answer = answers[Math.min(index, answers.length - 1)];
    const value =
      typeof answer === "function" ? (answer as (call: { prompt: string; index: number }) => unknown)({ prompt, index }) : answer;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return {
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: undefined },
      usage: {
        inputTokens: {
          total: Math.ceil(prompt.length / 4),
          noCache: Math.ceil(prompt.length / 4),
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: Math.ceil(text.length / 4), text: Math.ceil(text.length / 4), reasoning: undefined },
      },
      response: { id: `mock-${index + 1}`, modelId: "mock", timestamp: new Date(0) },
      warnings: [],
    };
  };
  return {
    specificationVersion: "v4",
    provider: "little.mock",
    modelId: "mock",
    supportedUrls: {},
    calls,
    doGenerate: generate,
    // The harness's own playback of a whole answer as stream parts.
    doStream: async (options) => streamOfResult(await generate(options)),
  };
}

function promptOf(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n")))
    .join("\n");
}
