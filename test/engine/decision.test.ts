import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { renderTemplate } from "../../src/lwir/evaluate-template.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";

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

describe("loops bounded by maxVisits", () => {
  function loopSetup() {
    let tries = 0;
    const calls: string[] = [];
    const attempt = tool({
      description: "Tries once more",
      inputSchema: z.object({}),
      execute: async () => {
        tries += 1;
        calls.push(`try ${tries}`);
        return { tries };
      },
    });
    const finish = tool({
      description: "Finishes",
      inputSchema: z.object({ tries: z.number() }),
      execute: async ({ tries: n }: { tries: number }) => {
        calls.push("finish");
        return { finishedAfter: n };
      },
    });
    const workflow = defineWorkflow({
      id: "loop.retry",
      description: "Tries until it works.",
      input: z.object({ need: z.number() }),
      output: { mode: "json" },
      models: [model(MOCK, { description: "unused" })],
      planner: { model: MOCK, system: "unused" },
      tools: { attempt, finish },
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: MOCK, offline: false }) } });
    return { workflow, world, calls };
  }
  const lwir = (maxVisits: number, loopOnDefault = false) => ({
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "loop.retry", version: "0.1.0" },
    input: { schema: { type: "object", properties: { need: { type: "number" } }, required: ["need"] } },
    output: { schema: true },
    permissions: { models: [], tools: ["attempt", "finish"], secrets: [], network: [] },
    steps: [
      { id: "try", uses: "tool.call", needs: [], with: { tool: "attempt" }, output: { mode: "json" } },
      {
        id: "check",
        uses: "decision",
        needs: ["try"],
        with: loopOnDefault
          ? { cases: [{ when: "{{ gte(steps.try.output.tries, input.need) }}", step: "done" }], default: "try", maxVisits }
          : { cases: [{ when: "{{ lt(steps.try.output.tries, input.need) }}", step: "try" }], default: "done", maxVisits },
      },
      {
        id: "done",
        uses: "tool.call",
        needs: ["check"],
        with: { tool: "finish", input: { tries: "{{ steps.try.output.tries }}" } },
        output: { mode: "json" },
      },
    ],
  });

  it("goes round until the condition changes, each visit its own step path", async () => {
    const { workflow, world, calls } = loopSetup();
    const r = await runWorkflow(workflow, { need: 3 }, { world, runId: "run_loop", lwir: lwir(5) });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ finishedAfter: 3 });
    expect(calls).toEqual(["try 1", "try 2", "try 3", "finish"]);
    const paths = ((await world.logs.get("run_loop")?.all()) ?? [])
      .filter((e) => e.type === "StepSucceeded")
      .map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(paths).toEqual(["c1/try", "c1/check", "c1/try@2", "c1/check@2", "c1/try@3", "c1/check@3", "c1/done"]);
  });

  it("stops looping after maxVisits and takes the next eligible choice", async () => {
    const { workflow, world, calls } = loopSetup();
    const r = await runWorkflow(workflow, { need: 10 }, { world, runId: "run_loop_bound", lwir: lwir(3) });
    expect(r.output).toEqual({ finishedAfter: 3 });
    expect(calls).toEqual(["try 1", "try 2", "try 3", "finish"]);
  });

  it("fails with loop_exhausted when the default is the loop and it is used up", async () => {
    const { workflow, world } = loopSetup();
    const r = await runWorkflow(workflow, { need: 10 }, { world, runId: "run_loop_exhausted", lwir: lwir(2, true) });
    expect(r.cause?.code).toBe("step_failed");
    const failed = ((await world.logs.get("run_loop_exhausted")?.all()) ?? []).find((e) => e.type === "StepFailed");
    expect(failed?.payload).toMatchObject({ stepPath: "c1/check@2", error: { code: "loop_exhausted" } });
  });

  it("a run resumed in the middle of a loop replays the visits already made", async () => {
    const { workflow, world, calls } = loopSetup();
    await runWorkflow(workflow, { need: 3 }, { world, runId: "run_loop_resume", lwir: lwir(5) });
    const log = world.logs.get("run_loop_resume");
    const events = (await log?.all()) ?? [];
    log?.truncateAfter(
      events.findIndex((e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath === "c1/check@2") + 1,
    );
    calls.length = 0;
    const again = await runWorkflow(workflow, { need: 3 }, { world, runId: "run_loop_resume", lwir: lwir(5) });
    expect(again.status).toBe("completed");
    // Visits 1 and 2 come from the log; only the third try (its tool keeps counting) and the finish run.
    expect(calls).toEqual(["try 4", "finish"]);
    const paths = ((await log?.all()) ?? [])
      .filter((e) => e.type === "StepSucceeded")
      .map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(paths).toEqual(["c1/try", "c1/check", "c1/try@2", "c1/check@2", "c1/try@3", "c1/check@3", "c1/done"]);
  });
});
