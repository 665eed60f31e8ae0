import { LoadAPIKeyError } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { type ModelEnv, text } from "./provider-registry.ts";

/** The secret each provider's AI SDK package reads its key from, by vendor (`openai.responses` → `openai`). */
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

/**
 * The secrets a model as authored in the definition still lacks (empty: it can be called).
 *
 * - A gateway string (`"openai/gpt-5"`) goes through the AI SDK gateway: it needs
 *   `AI_GATEWAY_API_KEY`, whatever vendor the string names.
 * - A model object needs its vendor's key unless the instance carries its own. AI SDK providers
 *   built on `@ai-sdk/provider-utils` keep a `config.headers()` that resolves the key (the
 *   `apiKey` option, else `process.env`) and throws `LoadAPIKeyError` when there is none; it is
 *   called here without any request. A model without such a config (wrapped, custom) is judged by
 *   its vendor's key; a provider id outside {@link PROVIDER_KEYS} is taken as keyed — that is the
 *   escape hatch for a wrapper: `wrapLanguageModel({ model, middleware, providerId: "my-openai" })`.
 */
export function missingKeysOfDeclared(declared: LanguageModel, env: ModelEnv): string[] {
  if (typeof declared === "string") return text(env, "AI_GATEWAY_API_KEY") ? [] : ["AI_GATEWAY_API_KEY"];
  const vendor = declared.provider.split(".")[0] ?? declared.provider;
  const keyName = PROVIDER_KEYS[vendor];
  if (keyName !== undefined && text(env, keyName) !== undefined) return [];
  const probe = probeHeaders(declared);
  if (probe.kind === "keyed") return [];
  if (probe.kind === "missing") return [probe.variable ?? keyName ?? `${vendor} API key`];
  return keyName === undefined ? [] : [keyName];
}

type Probe = { kind: "keyed" } | { kind: "missing"; variable?: string } | { kind: "unknown" };

function probeHeaders(model: object): Probe {
  const headers = (model as { config?: { headers?: unknown } }).config?.headers;
  if (typeof headers !== "function") return { kind: "unknown" };
  try {
    const result: unknown = headers();
    // An async key source (a function returning a promise, the gateway's OIDC lookup) cannot be
    // judged without awaiting it: fall back to the vendor's key, and swallow its rejection.
    if (result instanceof Promise) {
      result.catch(() => undefined);
      return { kind: "unknown" };
    }
    return { kind: "keyed" };
  } catch (error) {
    if (LoadAPIKeyError.isInstance(error)) {
      const variable = /\b([A-Z][A-Z0-9_]*_API_KEY)\b/.exec(error.message)?.[1];
      return variable ? { kind: "missing", variable } : { kind: "missing" };
    }
    return { kind: "unknown" };
  }
}
