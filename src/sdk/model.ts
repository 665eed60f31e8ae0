import type { LanguageModel } from "ai";

/**
 * An execution model slot: a model the planner may choose for a step, with a description that
 * tells the planner what it is good for. The slot id is derived from the model name unless `id`
 * reserves one explicitly.
 */
export type ModelSlotDeclaration = {
  readonly kind: "little.model";
  readonly model: LanguageModel;
  readonly description: string;
  readonly id?: string;
  /** USD per million tokens; without it the slot's calls have cost null. */
  readonly pricing?: ModelPricing;
  /**
   * Rate limits shared by every run of every workflow of the tenant calling this provider and
   * model (docs/flow-control.md). Not hashed: like a schedule, a limit is not what the plan does.
   */
  readonly limits?: ModelLimits;
};

/** A model's shared limits: calls per minute, tokens per minute, calls in flight at once. */
export type ModelLimits = { readonly requestsPerMinute?: number; readonly tokensPerMinute?: number; readonly concurrent?: number };

/** What a model costs, in USD per million tokens. */
export type ModelPricing = { readonly inputPerMillionTokens: number; readonly outputPerMillionTokens: number };

/** Where a model comes from, as recorded in snapshots: never the model object itself. */
export type ModelIdentity = { readonly providerId: string; readonly modelId: string };

/**
 * Declares a model slot.
 *
 * @example
 * models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })]
 * models: [model(openai("gpt-4o-mini"), { description: "Drafts replies.", limits: { requestsPerMinute: 120 } })]
 */
export function model(
  languageModel: LanguageModel,
  options: { description: string; id?: string; pricing?: ModelPricing; limits?: ModelLimits },
): ModelSlotDeclaration {
  return {
    kind: "little.model",
    model: languageModel,
    description: options.description,
    ...(options.id !== undefined ? { id: options.id } : {}),
    ...(options.pricing !== undefined ? { pricing: options.pricing } : {}),
    ...(options.limits !== undefined ? { limits: { ...options.limits } } : {}),
  };
}

/**
 * Provider and model id of a model: AI SDK model objects carry both; a gateway string
 * `"openai/gpt-5"` splits at the first slash.
 */
export function modelIdentity(languageModel: LanguageModel): ModelIdentity {
  if (typeof languageModel === "string") {
    const slash = languageModel.indexOf("/");
    return slash > 0
      ? { providerId: languageModel.slice(0, slash), modelId: languageModel.slice(slash + 1) }
      : { providerId: "gateway", modelId: languageModel };
  }
  return { providerId: languageModel.provider, modelId: languageModel.modelId };
}
