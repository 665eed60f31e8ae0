import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryWorld } from "../../src/adapters/memory/memory-world.ts";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { renderTemplate } from "../../src/lwir/evaluate-template.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

function setup() {
  const calls: string[] = [];
  const act = tool({
    description: "Records which branch ran",
    inputSchema: z.object({ branch: z.string(), amount: z.number().optional() }),
    execute: async ({ branch }: { branch: string }) => {
      calls.push(branch);
      return { handledBy: branch };
    },
  });
  const workflow = defineWorkflow({
    id: "route.refund",
    description: "Routes refunds by amount.",
    input: z.object({ amount: z.number() }),
    output: { mode: "json" },
    models: [model(MOCK, { description: "unused" })],
    planner: { model: MOCK, system: "unused" },
    tools: { act },
  });
  const world = new MemoryWorld({ models: { resolve: () => ({ model: MOCK, offline: false }) } });
  return { workflow, world, calls };
}

const LWIR = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "route.refund", version: "0.1.0" },
  input: { schema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] } },
  output: { schema: true },
  permissions: { models: [], tools: ["act"], secrets: [], network: [] },
  steps: [
    {
      id: "route",
      uses: "decision",
      needs: [],
      with: { cases: [{ when: "{{ gt(input.amount, 100) }}", step: "escalate" }], default: "auto-approve" },
    },
    {
      id: "escalate",
      uses: "tool.call",
      needs: ["route"],
      with: { tool: "act", input: { branch: "escalate", amount: "{{ input.amount }}" } },
      output: { mode: "json" },
    },
    { id: "auto-approve", uses: "tool.call", needs: ["route"], with: { tool: "act", input: { branch: "auto" } }, output: { mode: "json" } },
    { id: "notify", uses: "tool.call", needs: ["escalate"], with: { tool: "act", input: { branch: "notify" } }, output: { mode: "json" } },
    {
      id: "done",
      uses: "tool.call",
      needs: ["notify", "auto-approve"],
      with: { tool: "act", input: { branch: "{{ default(steps.notify.output.handledBy, steps.auto-approve.output.handledBy) }}" } },
      output: { mode: "json" },
    },
  ],
};

describe("decision steps", () => {
  it("runs the chosen branch, skips the other and what only it leads to, and joins", async () => {
    const { workflow, world, calls } = setup();
    const high = await runWorkflow(workflow, { amount: 500 }, { world, runId: "run_high", lwir: LWIR });
    expect(high.cause).toBeUndefined();
    expect(calls).toEqual(["escalate", "notify", "notify"]);
    expect(high.output).toEqual({ handledBy: "notify" });
    calls.length = 0;
    const low = await runWorkflow(workflow, { amount: 20 }, { world, runId: "run_low", lwir: LWIR });
    expect(calls).toEqual(["auto", "auto"]);
    const events = (await world.logs.get("run_low")?.all()) ?? [];
    const skipped = events.filter((e) => e.type === "StepSkipped").map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(skipped).toEqual(["c1/escalate", "c1/notify"]);
    expect(
      events.find((e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath === "c1/route")?.payload,
    ).toMatchObject({ output: { chosen: "auto-approve" } });
    expect(low.output).toEqual({ handledBy: "auto" });
  });

  it("replays the choice from the log: a resumed run does not re-run settled steps", async () => {
    const { workflow, world, calls } = setup();
    await runWorkflow(workflow, { amount: 20 }, { world, runId: "run_replay_route", lwir: LWIR });
    const log = world.logs.get("run_replay_route");
    const events = (await log?.all()) ?? [];
    // Cut after the chosen branch finished: the decision, the skips and that branch are settled.
    log?.truncateAfter(
      events.findIndex((e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath === "c1/auto-approve") + 1,
    );
    calls.length = 0;
    const again = await runWorkflow(workflow, { amount: 20 }, { world, runId: "run_replay_route", lwir: LWIR });
    expect(again.output).toEqual({ handledBy: "auto" });
    // Only the join runs again (its tool records the branch it joins: "auto").
    expect(calls).toEqual(["auto"]);
    const types = ((await log?.all()) ?? []).map((e) => e.type);
    expect(types.filter((t) => t === "StepSkipped")).toHaveLength(2);
  });

  it("has comparison and logic functions with JSON equality", () => {
    const scope = { input: { a: 3, tags: ["x", "y"], s: "refund please" }, steps: {} };
    expect(renderTemplate("{{ and(gt(input.a, 2), contains(input.tags, 'y')) }}", scope)).toBe(true);
    expect(renderTemplate("{{ or(eq(input.a, '3'), not(contains(input.s, 'refund'))) }}", scope)).toBe(false);
    expect(renderTemplate("{{ lte(input.a, 3) }}", scope)).toBe(true);
    expect(renderTemplate("{{ gt(input.missing, 1) }}", scope)).toBe(false);
  });
});
