import { ModelConfigInvalidError } from "../sdk/errors/model-config-invalid-error.ts";
import type { ModelIdentity } from "../sdk/model.ts";

/**
 * A slot's model replaced by deployment configuration (`LITTLE_MODEL_<SLOT>=provider:model`).
 * `provider` is the configured provider name (`anthropic`, `openai-chat`, …); `providerId` is the
 * id the AI SDK model built from it reports (`anthropic.messages`), which is what snapshots record,
 * so an override naming the very model a slot already declares leaves the definition hash as it is.
 */
export type ModelOverride = { readonly provider: string; readonly providerId: string; readonly modelId: string };

/** An override whose value could not be read: kept so the slot it names fails closed. */
export type InvalidModelOverride = { readonly variable: string; readonly invalid: string };

/**
 * Overrides by slot key ({@link slotOverrideKey}). Plain data built by the wiring from Worker vars:
 * the core never reads the environment, it is handed this map.
 */
export type ModelOverrides = Readonly<Record<string, ModelOverride | InvalidModelOverride>>;

/** The prefix of the Worker vars that override slots. */
export const MODEL_OVERRIDE_PREFIX = "LITTLE_MODEL_";

/**
 * The key of a slot in {@link ModelOverrides} and in its Worker var name: the slot id upper-cased,
 * every character other than A–Z and 0–9 turned into `_` (`gpt-5.1` → `GPT_5_1`). Two slot ids
 * can share a key (`gpt-5.1`, `gpt-5-1`); one var then overrides both.
 */
export function slotOverrideKey(slotId: string): string {
  return slotId.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

/**
 * The model a slot resolves to: its override when one is configured, else the authored identity.
 * Throws `ModelConfigInvalidError` when the slot's override could not be read.
 */
export function overriddenIdentity(
  overrides: ModelOverrides | undefined,
  slotId: string,
  authored: ModelIdentity,
): ModelIdentity & { readonly source: "definition" | "override" } {
  const entry = overrides?.[slotOverrideKey(slotId)];
  if (entry === undefined) return { ...authored, source: "definition" };
  if ("invalid" in entry) throw new ModelConfigInvalidError(entry.variable, entry.invalid);
  return { providerId: entry.providerId, modelId: entry.modelId, source: "override" };
}
