import { type ModelOverride, type ModelOverrides, slotOverrideKey } from "../../identity/model-overrides.ts";
import type { ModelMode, ModelReadiness, ModelRequest, ModelResolver, ResolvedModel } from "../../ports/model-resolver.ts";
import { ModelUnavailableError } from "../../sdk/errors/model-unavailable-error.ts";
import { missingKeysOfDeclared } from "./declared-model-keys.ts";
import { OfflineLanguageModel } from "./offline-model.ts";
import { gatewayModel, type ModelEnv, missingFor, PROVIDERS, type ProviderEntry } from "./provider-registry.ts";

/** Reads `LITTLE_MODELS` leniently: unknown values mean `live`, the safe choice. */
export function parseModelMode(value: string | undefined): ModelMode {
  return value === "offline" || value === "auto" ? value : "live";
}

/**
 * Resolves slots from the Worker's env: a slot overridden by `LITTLE_MODEL_<SLOT>` is built from
 * the provider registry, any other slot is the model the definition declared. `offline` mode
 * always answers with the offline model; `auto` falls back to it when a key is missing; `live`
 * throws `ModelUnavailableError` naming the missing secrets (the API refuses such a start before
 * anything is stored, through {@link readiness}).
 */
export class EnvModelResolver implements ModelResolver {
  private readonly mode: ModelMode;
  private readonly env: ModelEnv;
  private readonly overrides: ModelOverrides;
  private readonly latencyMs: number;

  /** `secrets`: the Worker's vars, secrets and bindings (keys, base URLs, the `AI` binding). */
  constructor(options: { mode: ModelMode; secrets: ModelEnv; overrides?: ModelOverrides; offlineLatencyMs?: number }) {
    this.mode = options.mode;
    this.env = options.secrets;
    this.overrides = options.overrides ?? {};
    this.latencyMs = options.offlineLatencyMs ?? 0;
  }

  readiness(request: ModelRequest): ModelReadiness {
    const override = this.overrideOf(request);
    const missing = override ? missingFor(override.entry, this.env) : missingKeysOfDeclared(request.declared, this.env);
    const offline = this.mode === "offline" || (this.mode === "auto" && missing.length > 0);
    return { mode: this.mode, ready: offline || missing.length === 0, offline, missing, source: override ? "override" : "definition" };
  }

  resolve(request: ModelRequest): ResolvedModel {
    const readiness = this.readiness(request);
    if (readiness.offline) return this.offline(request);
    if (!readiness.ready) throw unavailable(request, readiness.missing);
    const override = this.overrideOf(request);
    if (override) return { model: override.entry.build(this.env, override.modelId), offline: false };
    const model = typeof request.declared === "string" ? gatewayModel(this.env, request.declared) : request.declared;
    return { model, offline: false };
  }

  /**
   * The slot's override, when the request is for the model it names: the snapshot the engine
   * resolves from was built with the same overrides, so this builds exactly what was hashed, and
   * a snapshot made without them (a test world) keeps its declared model.
   */
  private overrideOf(request: ModelRequest): (ModelOverride & { entry: ProviderEntry }) | undefined {
    const override = this.overrides[slotOverrideKey(request.slotId)];
    if (!override || "invalid" in override) return undefined;
    const entry = PROVIDERS[override.provider];
    if (!entry || override.providerId !== request.providerId || override.modelId !== request.modelId) return undefined;
    return { ...override, entry };
  }

  private offline(request: ModelRequest): ResolvedModel {
    return { model: new OfflineLanguageModel({ modelId: request.modelId, latencyMs: this.latencyMs }), offline: true };
  }
}

function unavailable(request: ModelRequest, missing: readonly string[]): ModelUnavailableError {
  const secrets = missing.filter((name) => name !== "AI");
  const hints = [
    ...(secrets.length > 0 ? [`set the Worker secret ${secrets.join(", ")} (wrangler secret put ${secrets[0]})`] : []),
    ...(missing.includes("AI") ? ['add the Workers AI binding ([ai] binding = "AI" in wrangler.toml)'] : []),
  ];
  return new ModelUnavailableError(
    request.providerId,
    request.modelId,
    `${hints.join(" and ")}, or run locally with LITTLE_MODELS=offline`,
    missing,
  );
}
