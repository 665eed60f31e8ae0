import { describe, expect, it } from "vitest";
import { EnvModelResolver, parseModelMode } from "../../../src/adapters/models/env-model-resolver.ts";
import { runWorkflow } from "../../../src/engine/run-workflow.ts";
import { summarizeTicket } from "../../../src/examples/support-summarize-ticket.ts";
import { MemoryWorld } from "../../../src/worlds/memory-world.ts";

const INPUT = { ticketId: "T-2", transcript: "Refund please." };
const declared = summarizeTicket.models[1]?.model;

describe("EnvModelResolver: offline, auto and live modes", () => {
  it("live with no provider key fails the run with model_unavailable, naming the secret", async () => {
    const world = new MemoryWorld({ models: new EnvModelResolver({ mode: "live", secrets: {} }) });
    const result = await runWorkflow(summarizeTicket, INPUT, { world, runId: "run_no_key" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("model_unavailable");
    expect(result.cause?.message).toContain("OPENAI_API_KEY");
  });

  it("live with the key set resolves the declared provider model, not the offline one", () => {
    const resolver = new EnvModelResolver({ mode: "live", secrets: { OPENAI_API_KEY: "sk-test" } });
    const resolved = resolver.resolve({
      role: "worker",
      slotId: "gpt-4o-mini",
      providerId: "openai.responses",
      modelId: "gpt-4o-mini",
      declared: declared as never,
    });
    expect(resolved.offline).toBe(false);
    expect(resolved.model).toBe(declared);
  });

  it("auto with no key falls back to the offline model, labelled offline in the events", async () => {
    const world = new MemoryWorld({ models: new EnvModelResolver({ mode: "auto", secrets: {} }) });
    const result = await runWorkflow(summarizeTicket, INPUT, { world, runId: "run_auto" });
    expect(result.status).toBe("completed");
    const responded = ((await world.logs.get("run_auto")?.all()) ?? []).filter((e) => e.type === "harness.model.responded");
    expect(responded.length).toBeGreaterThan(0);
    for (const e of responded) expect((e.payload as { model: { offline: boolean } }).model.offline).toBe(true);
  });

  it("LITTLE_MODELS parses leniently: anything but offline/auto means live", () => {
    expect(parseModelMode("offline")).toBe("offline");
    expect(parseModelMode("auto")).toBe("auto");
    expect(parseModelMode(undefined)).toBe("live");
    expect(parseModelMode("yes please")).toBe("live");
  });

  it("the offline model is deterministic: the same run twice gives the same version and output", async () => {
    const a = new MemoryWorld({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) });
    const b = new MemoryWorld({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) });
    const ra = await runWorkflow(summarizeTicket, INPUT, { world: a, runId: "x" });
    const rb = await runWorkflow(summarizeTicket, INPUT, { world: b, runId: "y" });
    expect(ra.versionId).toBe(rb.versionId);
    expect(ra.output).toEqual(rb.output);
  });
});
