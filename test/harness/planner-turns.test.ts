import { jsonSchema } from "ai";
import { describe, expect, it } from "vitest";
import type { HarnessTool } from "../../src/harness/durable-tools.ts";
import { plannerSystemPrompt, plannerUserPrompt, planTask } from "../../src/harness/planner-prompt.ts";
import { countingTurns, MAX_PLANNER_TURNS } from "../../src/harness/planner-session.ts";
import { LEGACY_LWIR_VALIDATOR_ID } from "../../src/identity/lwir-validator-id.ts";
import { shippedTask } from "../planner-corpus/tasks.ts";

const echo: HarnessTool = { description: "echo", inputSchema: jsonSchema({ type: "object" }), execute: async () => ({ stdout: "ok" }) };
const at = (turn: number) => countingTurns(echo).execute({}, { idempotencyKey: "k", callId: "c", turn });

describe("the planner's turn budget", () => {
  it("is stated in the prompt, and every tool result counts it down, warning on the last two", async () => {
    expect(MAX_PLANNER_TURNS).toBe(16);
    const system = plannerSystemPrompt("Plan.", [], 3);
    expect(system).toContain("You have 16 turns (model replies) in all; every tool result says turnsLeft");
    expect(system).not.toContain("costs nothing");
    expect(await at(1)).toEqual({ stdout: "ok", turnsLeft: 15 });
    expect(await at(14)).toMatchObject({ turnsLeft: 2, warning: expect.stringContaining("Only 2 turns left: submit_lwir") });
    expect(await at(15)).toMatchObject({ turnsLeft: 1, warning: expect.stringContaining("Only 1 turn left") });
    expect((await at(13)) as object).not.toHaveProperty("warning");
  });

  it("states the bash sandbox's facts and a sha256 recipe that hashes the file itself", () => {
    const system = plannerSystemPrompt("Plan.", [], 3);
    expect(system).toContain("node is v24 without node:fs");
    expect(system).toContain("python3 is absent");
    expect(system).toContain("sha256sum x.ts | cut -d' ' -f1");
    expect(system).toContain("A forEach step's output is the array of its branch outputs in item order");
    expect(system).toContain("default(steps.a.output.reply, steps.b.output.reply)");
  });

  it("a run on validator @1 is shown the prompt it was planned with (its recorded calls keep their request hashes)", async () => {
    const legacy = plannerSystemPrompt("Plan.", [], 3, LEGACY_LWIR_VALIDATOR_ID);
    expect(legacy).toContain("it costs nothing");
    expect(legacy).toContain("reads whichever ran: {{ default(steps.a.output, steps.b.output) }}.");
    expect(legacy).not.toContain("turnsLeft");
    const t = await shippedTask("support.summarize-ticket");
    expect(plannerUserPrompt(planTask(t.caps, t.input), LEGACY_LWIR_VALIDATOR_ID)).toBe(plannerUserPrompt(planTask(t.caps, t.input)));
  });
});
