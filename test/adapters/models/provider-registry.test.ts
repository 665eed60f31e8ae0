import { createOpenAI, openai } from "@ai-sdk/openai";
import { wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { missingKeysOfDeclared } from "../../../src/adapters/models/declared-model-keys.ts";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { modelOverridesFromEnv } from "../../../src/adapters/models/model-overrides-from-env.ts";
import { missingFor, PROVIDERS } from "../../../src/adapters/models/provider-registry.ts";
import { slotOverrideKey } from "../../../src/identity/model-overrides.ts";
import type { ModelRequest } from "../../../src/ports/model-resolver.ts";

const KEYS = {
  OPENAI_API_KEY: "sk-test",
  ANTHROPIC_API_KEY: "sk-ant-test",
  GOOGLE_GENERATIVE_AI_API_KEY: "g-test",
  OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
  AI_GATEWAY_API_KEY: "gw-test",
  AI: { run: async () => ({ response: "" }) },
};

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  role: "worker",
  slotId: "gpt-5",
  providerId: "openai.responses",
  modelId: "gpt-5",
  declared: openai("gpt-5"),
  ...over,
});

describe("provider registry", () => {
  it.each(Object.entries(PROVIDERS))("%s builds a model that reports the registry's providerId", (name, entry) => {
    const built = entry.build(KEYS, name === "gateway" ? "openai/gpt-5" : "some-model");
    expect(built.provider).toBe(entry.providerId);
    expect(built.modelId).toBe(name === "gateway" ? "openai/gpt-5" : "some-model");
    expect(missingFor(entry, KEYS)).toEqual([]);
  });

  it("names what each provider lacks: secrets, the base URL, the AI binding", () => {
    expect(missingFor(PROVIDERS.openai as never, {})).toEqual(["OPENAI_API_KEY"]);
    expect(missingFor(PROVIDERS["openai-chat"] as never, { OPENAI_API_KEY: "" })).toEqual(["OPENAI_API_KEY"]);
    expect(missingFor(PROVIDERS["openai-compatible"] as never, {})).toEqual(["OPENAI_COMPATIBLE_BASE_URL"]);
    expect(missingFor(PROVIDERS.anthropic as never, {})).toEqual(["ANTHROPIC_API_KEY"]);
    expect(missingFor(PROVIDERS.google as never, {})).toEqual(["GOOGLE_GENERATIVE_AI_API_KEY"]);
    expect(missingFor(PROVIDERS["workers-ai"] as never, { AI: "not a binding" })).toEqual(["AI"]);
    expect(missingFor(PROVIDERS.gateway as never, {})).toEqual(["AI_GATEWAY_API_KEY"]);
  });

  it("passes base URLs through: OPENAI_BASE_URL (how Cloudflare AI Gateway is used) reaches the request", async () => {
    const seen: string[] = [];
    const env = { ...KEYS, OPENAI_BASE_URL: "https://gateway.ai.cloudflare.com/v1/acct/gw/openai" };
    const model = PROVIDERS["openai-chat"]?.build(env, "gpt-4o-mini") as unknown as { config: { url: (o: { path: string }) => string } };
    seen.push(model.config.url({ path: "/chat/completions" }));
    expect(seen).toEqual(["https://gateway.ai.cloudflare.com/v1/acct/gw/openai/chat/completions"]);
  });
});

describe("LITTLE_MODEL_<SLOT> parsing", () => {
  it("slot keys: upper-cased, every non-alphanumeric character to _", () => {
    expect(slotOverrideKey("gpt-5")).toBe("GPT_5");
    expect(slotOverrideKey("gpt-4o-mini")).toBe("GPT_4O_MINI");
    expect(slotOverrideKey("claude-3.5-sonnet-otter")).toBe("CLAUDE_3_5_SONNET_OTTER");
  });

  it("reads provider:model (the model may contain colons and slashes), ignoring other vars", () => {
    expect(
      modelOverridesFromEnv({
        LITTLE_MODELS: "live",
        LITTLE_MODEL_TIMEOUT_MS: "30000",
        LITTLE_MODEL_GPT_5: "anthropic:claude-sonnet-4-5",
        LITTLE_MODEL_GPT_4O_MINI: "workers-ai:@cf/meta/llama-3.1-8b-instruct",
        LITTLE_MODEL_O3: "gateway:openai/o3",
        LITTLE_MODEL_X: " openai-compatible : qwen:7b ",
        OPENAI_API_KEY: "sk",
      }),
    ).toEqual({
      GPT_5: { provider: "anthropic", providerId: "anthropic.messages", modelId: "claude-sonnet-4-5" },
      GPT_4O_MINI: { provider: "workers-ai", providerId: "workersai.chat", modelId: "@cf/meta/llama-3.1-8b-instruct" },
      O3: { provider: "gateway", providerId: "gateway", modelId: "openai/o3" },
      X: { provider: "openai-compatible", providerId: "openai-compatible.chat", modelId: "qwen:7b" },
    });
  });

  it("keeps malformed values and unknown providers as invalid entries naming the var", () => {
    const parsed = modelOverridesFromEnv({ LITTLE_MODEL_A: "gpt-5", LITTLE_MODEL_B: "acme:m1", LITTLE_MODEL_C: "openai:" });
    expect(parsed.A).toMatchObject({ variable: "LITTLE_MODEL_A", invalid: expect.stringContaining("<provider>:<model>") });
    expect(parsed.B).toMatchObject({ variable: "LITTLE_MODEL_B", invalid: expect.stringContaining('unknown provider "acme"') });
    expect(parsed.C).toMatchObject({ variable: "LITTLE_MODEL_C", invalid: expect.any(String) });
  });
});

describe("the key check uses the key the instance really needs", () => {
  it("a gateway string needs AI_GATEWAY_API_KEY, not the vendor's key", () => {
    expect(missingKeysOfDeclared("openai/gpt-5", { OPENAI_API_KEY: "sk" })).toEqual(["AI_GATEWAY_API_KEY"]);
    expect(missingKeysOfDeclared("openai/gpt-5", { AI_GATEWAY_API_KEY: "gw" })).toEqual([]);
    const live = new EnvModelResolver({ mode: "live", secrets: { AI_GATEWAY_API_KEY: "gw" } });
    // modelIdentity splits the string, so the snapshot says provider "openai": the resolver still uses the gateway.
    const resolved = live.resolve(request({ providerId: "openai", declared: "openai/gpt-5" }));
    expect(resolved.model.provider).toBe("gateway");
    expect(() =>
      new EnvModelResolver({ mode: "live", secrets: { OPENAI_API_KEY: "sk" } }).resolve(request({ declared: "openai/gpt-5" })),
    ).toThrow(/AI_GATEWAY_API_KEY/);
  });

  it("createOpenAI({ apiKey }) needs no env secret; the default instance needs OPENAI_API_KEY", () => {
    expect(missingKeysOfDeclared(createOpenAI({ apiKey: "sk-own" })("gpt-5"), {})).toEqual([]);
    expect(missingKeysOfDeclared(openai("gpt-5"), {})).toEqual(["OPENAI_API_KEY"]);
    expect(missingKeysOfDeclared(openai("gpt-5"), { OPENAI_API_KEY: "sk" })).toEqual([]);
    const live = new EnvModelResolver({ mode: "live", secrets: {} });
    const own = createOpenAI({ apiKey: "sk-own" })("gpt-5");
    expect(live.resolve(request({ declared: own })).model).toBe(own);
  });

  it("a wrapped model is judged by its vendor's key; a providerId outside the known vendors is the escape hatch", () => {
    const inner = createOpenAI({ apiKey: "sk-own" })("gpt-5");
    const wrapped = wrapLanguageModel({ model: inner, middleware: {} });
    expect(missingKeysOfDeclared(wrapped, {})).toEqual(["OPENAI_API_KEY"]);
    const renamed = wrapLanguageModel({ model: inner, middleware: {}, providerId: "acme-openai" });
    expect(missingKeysOfDeclared(renamed, {})).toEqual([]);
  });
});

describe("EnvModelResolver with overrides", () => {
  const overrides = modelOverridesFromEnv({ LITTLE_MODEL_GPT_5: "anthropic:claude-sonnet-4-5" });
  const overridden = request({ providerId: "anthropic.messages", modelId: "claude-sonnet-4-5" });

  it("builds the overridden slot from the registry, with the key it needs", () => {
    const live = new EnvModelResolver({ mode: "live", secrets: { ANTHROPIC_API_KEY: "k" }, overrides });
    const resolved = live.resolve(overridden);
    expect(resolved).toMatchObject({ offline: false, model: { provider: "anthropic.messages", modelId: "claude-sonnet-4-5" } });
    expect(live.readiness(overridden)).toEqual({ mode: "live", ready: true, offline: false, missing: [], source: "override" });
  });

  it("live: an override missing its key is not ready and resolving names the secret; the declared key does not help", () => {
    const live = new EnvModelResolver({ mode: "live", secrets: { OPENAI_API_KEY: "sk" }, overrides });
    expect(live.readiness(overridden)).toMatchObject({ ready: false, offline: false, missing: ["ANTHROPIC_API_KEY"], source: "override" });
    expect(() => live.resolve(overridden)).toThrow(/ANTHROPIC_API_KEY/);
  });

  it("auto falls back to the offline model; offline mode is always offline", () => {
    const auto = new EnvModelResolver({ mode: "auto", secrets: {}, overrides });
    expect(auto.readiness(overridden)).toMatchObject({ mode: "auto", ready: true, offline: true, missing: ["ANTHROPIC_API_KEY"] });
    expect(auto.resolve(overridden).offline).toBe(true);
    const offline = new EnvModelResolver({ mode: "offline", secrets: { ANTHROPIC_API_KEY: "k" }, overrides });
    expect(offline.readiness(overridden)).toMatchObject({ mode: "offline", ready: true, offline: true });
  });

  it("a request for the authored model (a snapshot made without overrides) keeps the declared model", () => {
    const live = new EnvModelResolver({ mode: "live", secrets: { OPENAI_API_KEY: "sk" }, overrides });
    const declared = openai("gpt-5");
    expect(live.resolve(request({ declared })).model).toBe(declared);
    expect(live.readiness(request({ declared })).source).toBe("definition");
  });

  it("workers-ai is ready when the AI binding exists", () => {
    const wai = modelOverridesFromEnv({ LITTLE_MODEL_GPT_5: "workers-ai:@cf/meta/llama-3.1-8b-instruct" });
    const req = request({ providerId: "workersai.chat", modelId: "@cf/meta/llama-3.1-8b-instruct" });
    expect(new EnvModelResolver({ mode: "live", secrets: {}, overrides: wai }).readiness(req)).toMatchObject({
      ready: false,
      missing: ["AI"],
    });
    const bound = new EnvModelResolver({ mode: "live", secrets: { AI: KEYS.AI }, overrides: wai });
    expect(bound.readiness(req)).toMatchObject({ ready: true, missing: [] });
    expect(bound.resolve(req).model.provider).toBe("workersai.chat");
  });
});
