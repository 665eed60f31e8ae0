import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createGateway } from "ai";
import { createWorkersAI } from "workers-ai-provider";
import type { CallableModel } from "../../ports/model-resolver.ts";
import { AI_BINDING, PROVIDER_REQUIREMENTS } from "../../sdk/model-provider-requirements.ts";

/** The Worker's vars, secrets and bindings, as the model configuration reads them. */
export type ModelEnv = Readonly<Record<string, unknown>>;

/**
 * How one configurable provider (`LITTLE_MODEL_<SLOT>=<name>:<model>`) becomes an AI SDK model.
 * `providerId` is what the model built reports as `provider` (checked by a test), so the
 * snapshot records the same identity whether a slot was authored or configured that way.
 * Keys and base URLs are passed explicitly from the env instead of left to the SDK's
 * `process.env` lookup, so what `missing` checks is exactly what `build` uses.
 */
export type ProviderEntry = {
  readonly providerId: string;
  /** Secrets or bindings the provider cannot work without. */
  readonly requires: readonly string[];
  /** Vars it reads when set. */
  readonly optional: readonly string[];
  readonly describe: string;
  build(env: ModelEnv, modelId: string): CallableModel;
};

/** The configurable providers, by the name used in `LITTLE_MODEL_<SLOT>` values. */
export const PROVIDERS: Readonly<Record<string, ProviderEntry>> = {
  openai: {
    providerId: "openai.responses",
    requires: PROVIDER_REQUIREMENTS.openai,
    optional: ["OPENAI_BASE_URL"],
    describe: "OpenAI Responses API (also Cloudflare AI Gateway through OPENAI_BASE_URL)",
    build: (env, modelId) => openaiProvider(env).responses(modelId),
  },
  "openai-chat": {
    providerId: "openai.chat",
    requires: PROVIDER_REQUIREMENTS["openai-chat"],
    optional: ["OPENAI_BASE_URL"],
    describe: "OpenAI Chat Completions",
    build: (env, modelId) => openaiProvider(env).chat(modelId),
  },
  "openai-compatible": {
    providerId: "openai-compatible.chat",
    requires: PROVIDER_REQUIREMENTS["openai-compatible"],
    optional: ["OPENAI_COMPATIBLE_API_KEY"],
    describe: "any OpenAI-compatible Chat Completions endpoint",
    build: (env, modelId) =>
      createOpenAICompatible({
        name: "openai-compatible",
        baseURL: text(env, "OPENAI_COMPATIBLE_BASE_URL") ?? "",
        ...withValue("apiKey", text(env, "OPENAI_COMPATIBLE_API_KEY")),
      }).chatModel(modelId),
  },
  anthropic: {
    providerId: "anthropic.messages",
    requires: PROVIDER_REQUIREMENTS.anthropic,
    optional: ["ANTHROPIC_BASE_URL"],
    describe: "Anthropic Messages API",
    build: (env, modelId) =>
      createAnthropic({
        ...withValue("apiKey", text(env, "ANTHROPIC_API_KEY")),
        ...withValue("baseURL", text(env, "ANTHROPIC_BASE_URL")),
      })(modelId),
  },
  google: {
    providerId: "google.generative-ai",
    requires: PROVIDER_REQUIREMENTS.google,
    optional: ["GOOGLE_GENERATIVE_AI_BASE_URL"],
    describe: "Google Generative AI (Gemini)",
    build: (env, modelId) =>
      createGoogleGenerativeAI({
        ...withValue("apiKey", text(env, "GOOGLE_GENERATIVE_AI_API_KEY")),
        ...withValue("baseURL", text(env, "GOOGLE_GENERATIVE_AI_BASE_URL")),
      })(modelId),
  },
  "workers-ai": {
    providerId: "workersai.chat",
    requires: PROVIDER_REQUIREMENTS["workers-ai"],
    optional: [],
    describe: "Workers AI through the AI binding",
    build: (env, modelId) => createWorkersAI({ binding: env.AI as Ai })(modelId),
  },
  gateway: {
    providerId: "gateway",
    requires: PROVIDER_REQUIREMENTS.gateway,
    optional: [],
    describe: "the AI SDK gateway (vendor/model ids)",
    build: (env, modelId) => gatewayModel(env, modelId),
  },
};

/** Names of what `entry` requires that `env` lacks: a secret set to a non-empty string, or a binding. */
export function missingFor(entry: ProviderEntry, env: ModelEnv): string[] {
  return entry.requires.filter((name) => (name === AI_BINDING ? !isAiBinding(env.AI) : text(env, name) === undefined));
}

/** A gateway model id (`openai/gpt-5`) through the AI SDK gateway, keyed from the env. */
export function gatewayModel(env: ModelEnv, modelId: string): CallableModel {
  return createGateway({ ...withValue("apiKey", text(env, "AI_GATEWAY_API_KEY")) }).languageModel(modelId);
}

function openaiProvider(env: ModelEnv) {
  return createOpenAI({
    ...withValue("apiKey", text(env, "OPENAI_API_KEY")),
    ...withValue("baseURL", text(env, "OPENAI_BASE_URL")),
  });
}

/** The Workers AI binding is an object with `run`; anything else (absent, a var) is not one. */
function isAiBinding(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { run?: unknown }).run === "function";
}

/** A var's value when it is a non-empty string. */
export function text(env: ModelEnv, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function withValue<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
