import type { LanguageModel } from "ai";
import type { HarnessRole } from "./run-events.ts";

/** A model slot to resolve: its identity and the model object the definition declared. */
export type ModelRequest = {
  readonly role: HarnessRole;
  readonly slotId: string;
  readonly providerId: string;
  readonly modelId: string;
  readonly declared: LanguageModel;
};

/** A model ready to call. `offline` marks the deterministic offline model in the events. */
export type ResolvedModel = { readonly model: CallableModel; readonly offline: boolean };

/** A model object (any AI SDK specification version), not a gateway id string. */
export type CallableModel = Exclude<LanguageModel, string>;

/**
 * Turns a declared model into a callable one: the provider with its key from Worker secrets, or
 * the offline model when configured. Throws `ModelUnavailableError` when neither is possible.
 */
export interface ModelResolver {
  resolve(request: ModelRequest): ResolvedModel;
}
