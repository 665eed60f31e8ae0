import { gateway } from "ai";
import type { ModelRequest, ModelResolver, ResolvedModel } from "../../ports/model-resolver.ts";
import { ModelUnavailableError } from "../../sdk/errors/model-unavailable-error.ts";
import { OfflineLanguageModel } from "./offline-model.ts";

/**
 * `offline`: every model is the offline model. `auto` (local development): the real provider when
 * its key is set, else the offline model. `live` (deployed): the real provider, and a missing key
 * fails the run with `model_unavailable` — a deployed Worker never fakes an answer.
 */
export type ModelMode = "offline" | "auto" | "live";

/** The secret each provider's AI SDK package reads its key from. */
export const PROVIDER_KEYS: Readonly<Record<string, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
  mistral: "MISTRAL_API_KEY",
  groq: "GROQ_API_KEY",
  xai: "XAI_API_KEY",
  deepseek: "DEEPSEEK_API_KEY",
  cohere: "COHERE_API_KEY",
  gateway: "AI_GATEWAY_API_KEY",
};

/** Reads `LITTLE_MODELS` leniently: unknown values mean `live`, the safe choice. */
export function parseModelMode(value: string | undefined): ModelMode {
  return value === "offline" || value === "auto" ? value : "live";
}

export class EnvModelResolver implements ModelResolver {
  private readonly mode: ModelMode;
  private readonly secrets: Readonly<Record<string, unknown>>;
  private readonly latencyMs: number;

  constructor(options: { mode: ModelMode; secrets: Readonly<Record<string, unknown>>; offlineLatencyMs?: number }) {
    this.mode = options.mode;
    this.secrets = options.secrets;
    this.latencyMs = options.offlineLatencyMs ?? 0;
  }

  resolve(request: ModelRequest): ResolvedModel {
    if (this.mode === "offline") return this.offline(request);
    const vendor = request.providerId.split(".")[0] ?? request.providerId;
    const keyName = PROVIDER_KEYS[vendor];
    const hasKey = keyName === undefined || (typeof this.secrets[keyName] === "string" && this.secrets[keyName] !== "");
    if (hasKey) {
      const model = typeof request.declared === "string" ? gateway.languageModel(request.declared) : request.declared;
      return { model, offline: false };
    }
    if (this.mode === "auto") return this.offline(request);
    throw new ModelUnavailableError(
      request.providerId,
      request.modelId,
      `set the Worker secret ${keyName} (wrangler secret put ${keyName}), or run locally with LITTLE_MODELS=offline`,
    );
  }

  private offline(request: ModelRequest): ResolvedModel {
    return { model: new OfflineLanguageModel({ modelId: request.modelId, latencyMs: this.latencyMs }), offline: true };
  }
}
