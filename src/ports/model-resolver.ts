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
 * `offline`: every model is the offline model. `auto` (local development): the real provider when
 * its key is set, else the offline model. `live` (deployed): the real provider, and a missing key
 * is refused — a deployed Worker never fakes an answer.
 */
export type ModelMode = "offline" | "auto" | "live";

/**
 * Whether a slot can be called as configured, without calling it. `ready`: a run can call it (a
 * `live` start is refused when a slot is not). `offline`: those calls go to the offline model
 * (mode `offline`, or `auto` falling back). `missing`: the secrets and bindings the real provider
 * lacks, also when the offline model stands in. `source`: whether a `LITTLE_MODEL_<SLOT>` var
 * chose the provider.
 */
export type ModelReadiness = {
  readonly mode: ModelMode;
  readonly ready: boolean;
  readonly offline: boolean;
  readonly missing: readonly string[];
  readonly source: "definition" | "override";
};

/**
 * Turns a declared model into a callable one: the provider with its key from Worker secrets, or
 * the offline model when configured. Throws `ModelUnavailableError` when neither is possible.
 * `readiness` answers the same question without building anything; resolvers without it (test
 * doubles) are taken as always ready.
 */
export interface ModelResolver {
  resolve(request: ModelRequest): ResolvedModel;
  readiness?(request: ModelRequest): ModelReadiness;
}
