import { openai } from "@ai-sdk/openai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { model, modelIdentity } from "../../src/sdk/model.ts";

describe("model()", () => {
  it("wraps a language model with its description", () => {
    const lm = new MockLanguageModelV4({ provider: "mock", modelId: "m-1" });
    const slot = model(lm, { description: "Fast." });
    expect(slot).toEqual({ kind: "little.model", model: lm, description: "Fast." });
    expect(slot.model).toBe(lm);
  });

  it("keeps an explicit slot id", () => {
    expect(model(openai("gpt-5"), { description: "d", id: "reasoner" }).id).toBe("reasoner");
  });

  it("keeps an explicit empty id so defineWorkflow can reject it instead of silently deriving one", () => {
    const slot = model(openai("gpt-5"), { description: "d", id: "" });
    expect(Object.hasOwn(slot, "id")).toBe(true);
    expect(slot.id).toBe("");
  });
});

describe("modelIdentity()", () => {
  it("reads provider and model id from an AI SDK mock model", () => {
    expect(modelIdentity(new MockLanguageModelV4({ provider: "mock", modelId: "m-1" }))).toEqual({ providerId: "mock", modelId: "m-1" });
  });

  it("reads provider and model id from openai(), whatever provider string the object reports", () => {
    const lm = openai("gpt-5");
    const identity = modelIdentity(lm);
    expect(identity.modelId).toBe("gpt-5");
    expect(identity.providerId).toBe(lm.provider);
    expect(identity.providerId).toMatch(/^openai/);
  });

  it("distinguishes openai.chat from the default provider for the same model id", () => {
    expect(modelIdentity(openai.chat("gpt-4o-mini"))).toEqual({ providerId: openai.chat("gpt-4o-mini").provider, modelId: "gpt-4o-mini" });
  });

  it("splits a gateway string at the first slash", () => {
    expect(modelIdentity("openai/gpt-5")).toEqual({ providerId: "openai", modelId: "gpt-5" });
    expect(modelIdentity("meta/llama-3.1/instruct")).toEqual({ providerId: "meta", modelId: "llama-3.1/instruct" });
  });

  it("treats a string without a provider prefix as a gateway model", () => {
    expect(modelIdentity("gpt-5")).toEqual({ providerId: "gateway", modelId: "gpt-5" });
    expect(modelIdentity("/gpt-5")).toEqual({ providerId: "gateway", modelId: "/gpt-5" });
  });

  it("never returns the model object itself (only plain strings)", () => {
    const identity = modelIdentity(new MockLanguageModelV4({ provider: "mock", modelId: "m-1" }));
    expect(Object.keys(identity).sort()).toEqual(["modelId", "providerId"]);
    expect(typeof identity.providerId).toBe("string");
    expect(typeof identity.modelId).toBe("string");
  });
});
