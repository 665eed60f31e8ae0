import { MODEL_OVERRIDE_PREFIX, type ModelOverrides } from "../../identity/model-overrides.ts";
import { type ModelEnv, PROVIDERS } from "./provider-registry.ts";

/** `LITTLE_MODEL_*` vars that are settings, not slots (`LITTLE_MODEL_TIMEOUT_MS`). */
const NOT_SLOTS = new Set(["TIMEOUT_MS"]);

/**
 * Reads every `LITTLE_MODEL_<SLOT>=<provider>:<model>` var into {@link ModelOverrides}. A value
 * that is not `provider:model`, or names a provider outside {@link PROVIDERS}, is kept as invalid
 * rather than thrown here: the wiring runs on every request, and only the workflows with that slot
 * must fail (`model_config_invalid`, a 4xx), not every route of the Worker.
 *
 * @example
 * modelOverridesFromEnv({ LITTLE_MODEL_GPT_5: "anthropic:claude-sonnet-4-5" })
 * // { GPT_5: { provider: "anthropic", providerId: "anthropic.messages", modelId: "claude-sonnet-4-5" } }
 */
export function modelOverridesFromEnv(env: ModelEnv): ModelOverrides {
  const overrides: Record<string, ModelOverrides[string]> = {};
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith(MODEL_OVERRIDE_PREFIX) || typeof value !== "string") continue;
    const key = variable.slice(MODEL_OVERRIDE_PREFIX.length);
    if (key === "" || NOT_SLOTS.has(key)) continue;
    overrides[key] = parseOverride(variable, value);
  }
  return overrides;
}

function parseOverride(variable: string, value: string): ModelOverrides[string] {
  const colon = value.indexOf(":");
  const provider = colon > 0 ? value.slice(0, colon).trim() : "";
  const modelId = colon > 0 ? value.slice(colon + 1).trim() : "";
  if (provider === "" || modelId === "")
    return { variable, invalid: `expected "<provider>:<model>" (for example "anthropic:claude-sonnet-4-5"), got "${value}"` };
  const entry = PROVIDERS[provider];
  if (!entry) return { variable, invalid: `unknown provider "${provider}"; known: ${Object.keys(PROVIDERS).join(", ")}` };
  return { provider, providerId: entry.providerId, modelId };
}
