/**
 * What each configurable model provider — the `<provider>` of `LITTLE_MODEL_<SLOT>=<provider>:<model>`
 * (docs/models.md) — cannot work without: secrets or vars by name, or `AI`, the Workers AI binding.
 * One table for the resolver that builds the models and for `little deploy`, which asks for the
 * secrets before deploying.
 *
 * @example
 * PROVIDER_REQUIREMENTS.anthropic // ["ANTHROPIC_API_KEY"]
 */
export const PROVIDER_REQUIREMENTS = {
  openai: ["OPENAI_API_KEY"],
  "openai-chat": ["OPENAI_API_KEY"],
  "openai-compatible": ["OPENAI_COMPATIBLE_BASE_URL"],
  anthropic: ["ANTHROPIC_API_KEY"],
  google: ["GOOGLE_GENERATIVE_AI_API_KEY"],
  "workers-ai": ["AI"],
  gateway: ["AI_GATEWAY_API_KEY"],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** A provider of {@link PROVIDER_REQUIREMENTS}. */
export type ConfigurableProvider = keyof typeof PROVIDER_REQUIREMENTS;

/** The name of the Workers AI binding among the requirements (a binding, never a secret). */
export const AI_BINDING = "AI";
