/**
 * The benchmarks' models: the project's offline model with a latency read from the model id
 * (`bench-50ms` answers after 50 ms) and a count of every call it makes, by role. The count lives
 * in module scope: under `wrangler dev` the Worker and its Durable Objects share one isolate, so
 * a bench route reads what the run objects' calls added.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { OfflineLanguageModel } from "../../src/adapters/models/offline-model.ts";
import type { ModelRequest, ModelResolver, ResolvedModel } from "../../src/ports/model-resolver.ts";
import type { HarnessRole } from "../../src/ports/run-events.ts";

/** Model calls made in this isolate since it started, by role, and their tokens. */
export const modelCalls: Record<HarnessRole | "total", number> & { inputTokens: number; outputTokens: number } = {
  planner: 0,
  worker: 0,
  fixer: 0,
  total: 0,
  inputTokens: 0,
  outputTokens: 0,
};

/** `bench-50ms` → 50; a model id without a `-<n>ms` suffix answers at once. */
export function latencyOf(modelId: string): number {
  const match = /-(\d+)ms$/.exec(modelId);
  return match ? Number(match[1]) : 0;
}

/** The model object a bench definition declares (the resolver below is what runs). */
export function benchModel(modelId: string): OfflineLanguageModel {
  return new OfflineLanguageModel({ modelId, latencyMs: latencyOf(modelId) });
}

class CountedOfflineModel extends OfflineLanguageModel {
  private readonly role: HarnessRole;

  constructor(modelId: string, role: HarnessRole) {
    super({ modelId, latencyMs: latencyOf(modelId) });
    this.role = role;
  }

  override async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    modelCalls[this.role] += 1;
    modelCalls.total += 1;
    const result = await super.doGenerate(options);
    modelCalls.inputTokens += result.usage.inputTokens.total ?? 0;
    modelCalls.outputTokens += result.usage.outputTokens.total ?? 0;
    return result;
  }
}

/** Every model slot (planner, worker, fixer) resolves to a counted offline model. */
export const countingModels: ModelResolver = {
  resolve(request: ModelRequest): ResolvedModel {
    return { model: new CountedOfflineModel(request.modelId, request.role), offline: true };
  },
};
