import { describe, expect, it } from "vitest";
import { modelOverridesFromEnv } from "../../src/adapters/models/model-overrides-from-env.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { ModelConfigInvalidError } from "../../src/sdk/errors/model-config-invalid-error.ts";

describe("LITTLE_MODEL_<SLOT> overrides are part of the definition's identity", () => {
  it("an override to another provider/model changes the slot and the definition hash; slot ids stay", async () => {
    const base = await snapshotDefinition(summarizeTicket, {});
    const over = await snapshotDefinition(
      summarizeTicket,
      {},
      modelOverridesFromEnv({ LITTLE_MODEL_GPT_4O_MINI: "anthropic:claude-haiku-4-5" }),
    );
    expect(over.definitionHash).not.toBe(base.definitionHash);
    expect(over.snapshot.modelSlots.map((s) => s.id)).toEqual(base.snapshot.modelSlots.map((s) => s.id));
    expect(over.snapshot.modelSlots[1]).toEqual({
      ...base.snapshot.modelSlots[1],
      providerId: "anthropic.messages",
      modelId: "claude-haiku-4-5",
    });
    expect(over.snapshot.modelSlots[0]).toEqual(base.snapshot.modelSlots[0]);
    expect(over.snapshot.plannerConfig).toEqual(base.snapshot.plannerConfig);
  });

  it("the planner's slot (gpt-5, shared with the step slot of that id) is overridden by the same var", async () => {
    const base = await snapshotDefinition(summarizeTicket, {});
    const over = await snapshotDefinition(summarizeTicket, {}, modelOverridesFromEnv({ LITTLE_MODEL_GPT_5: "openai-chat:gpt-5.1" }));
    expect(over.snapshot.plannerConfig).toEqual({ ...base.snapshot.plannerConfig, providerId: "openai.chat", modelId: "gpt-5.1" });
    expect(over.snapshot.modelSlots[0]).toMatchObject({ id: "gpt-5", providerId: "openai.chat", modelId: "gpt-5.1" });
    expect(over.definitionHash).not.toBe(base.definitionHash);
  });

  it("an override naming the model the slot already declares keeps the hash; vars for absent slots change nothing", async () => {
    const base = await snapshotDefinition(summarizeTicket, {});
    const same = await snapshotDefinition(summarizeTicket, {}, modelOverridesFromEnv({ LITTLE_MODEL_GPT_4O_MINI: "openai:gpt-4o-mini" }));
    expect(same.definitionHash).toBe(base.definitionHash);
    const absent = await snapshotDefinition(summarizeTicket, {}, modelOverridesFromEnv({ LITTLE_MODEL_O3: "anthropic:x" }));
    expect(absent.definitionHash).toBe(base.definitionHash);
  });

  it("a malformed override of a slot the workflow has fails with model_config_invalid naming the var", async () => {
    const bad = modelOverridesFromEnv({ LITTLE_MODEL_GPT_4O_MINI: "claude-haiku" });
    const error = await snapshotDefinition(summarizeTicket, {}, bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelConfigInvalidError);
    expect(error).toMatchObject({ code: "model_config_invalid", variable: "LITTLE_MODEL_GPT_4O_MINI" });
  });
});
