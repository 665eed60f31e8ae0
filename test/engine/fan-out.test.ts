import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

function setup(execute: (input: { n: number }) => Promise<unknown>) {
  const square = tool({
    description: "Squares n",
    inputSchema: z.object({ n: z.number() }),
    execute: async (input: { n: number }) => execute(input),
  });
  const workflow = defineWorkflow({
    id: "fan.out",
    description: "Fans out over numbers.",
    input: z.object({ numbers: z.array(z.object({ id: z.string(), n: z.number() })) }),
    output: { mode: "json" },
    models: [model(MOCK, { description: "unused" })],
    planner: { model: MOCK, system: "unused" },
    tools: { square },
  });
  const world = new MemoryWorld({ models: { resolve: () => ({ model: MOCK, offline: false }) } });
  return { workflow, world };
}

function lwir(forEach: Record<string, unknown>) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "fan.out", version: "0.1.0" },
    input: {
      schema: {
        type: "object",
        properties: {
          numbers: {
            type: "array",
            items: { type: "object", properties: { id: { type: "string" }, n: { type: "number" } }, required: ["id", "n"] },
          },
        },
        required: ["numbers"],
      },
    },
    output: { schema: true },
    permissions: { models: [], tools: ["square"], secrets: [], network: [] },
    steps: [
      {
        id: "each",
        uses: "tool.call",
        needs: [],
        forEach,
        with: { tool: "square", input: { n: "{{ item.n }}" } },
        output: { mode: "json" },
      },
    ],
  };
}

const numbers = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `k${i}`, n: i }));

describe("fan-out (forEach)", () => {
  it("runs 50 branches never more than maxConcurrency 5 at once, output in item order", async () => {
    let inFlight = 0;
    let peak = 0;
    const { workflow, world } = setup(async ({ n }) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 2 + (n % 3)));
      inFlight -= 1;
      return n * n;
    });
    const r = await runWorkflow(
      workflow,
      { numbers: numbers(50) },
      { world, runId: "run_fan50", lwir: lwir({ items: "{{ input.numbers }}", maxConcurrency: 5 }) },
    );
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual(numbers(50).map((x) => x.n * x.n));
    expect(peak).toBe(5);
  });

  it("names branches by itemKey in their step paths", async () => {
    const { workflow, world } = setup(async ({ n }) => n + 1);
    await runWorkflow(
      workflow,
      { numbers: numbers(3) },
      { world, runId: "run_keys", lwir: lwir({ items: "{{ input.numbers }}", itemKey: "{{ item.id }}" }) },
    );
    const paths = ((await world.logs.get("run_keys")?.all()) ?? [])
      .filter((e) => e.type === "StepSucceeded")
      .map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(paths.sort()).toEqual(["c1/each", "c1/each[k0]", "c1/each[k1]", "c1/each[k2]"]);
  });

  it("all_settled keeps going past a failed branch and reports each branch's status", async () => {
    const { workflow, world } = setup(async ({ n }) => {
      if (n === 1) throw new Error("one is odd");
      return n;
    });
    const r = await runWorkflow(
      workflow,
      { numbers: numbers(3) },
      { world, runId: "run_settled", lwir: lwir({ items: "{{ input.numbers }}", failureMode: "all_settled" }) },
    );
    expect(r.output).toEqual([
      { status: "succeeded", output: 0 },
      { status: "failed", error: { code: "tool_failed", message: expect.stringContaining("one is odd") } },
      { status: "succeeded", output: 2 },
    ]);
  });

  it("fail_fast fails the step and the run at the first failed branch", async () => {
    const { workflow, world } = setup(async ({ n }) => {
      if (n === 2) throw new Error("two is bad");
      return n;
    });
    const r = await runWorkflow(
      workflow,
      { numbers: numbers(4) },
      { world, runId: "run_fast", lwir: lwir({ items: "{{ input.numbers }}", maxConcurrency: 1 }) },
    );
    expect(r.cause?.code).toBe("step_failed");
    const failed = ((await world.logs.get("run_fast")?.all()) ?? [])
      .filter((e) => e.type === "StepFailed")
      .map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(failed).toEqual(["c1/each[2]", "c1/each"]);
  });

  it("a run resumed in the middle of a fan-out does not re-run finished branches", async () => {
    const calls = new Map<number, number>();
    const { workflow, world } = setup(async ({ n }) => {
      calls.set(n, (calls.get(n) ?? 0) + 1);
      return n * 10;
    });
    const doc = lwir({ items: "{{ input.numbers }}", maxConcurrency: 1 });
    await runWorkflow(workflow, { numbers: numbers(10) }, { world, runId: "run_resume_fan", lwir: doc });
    const log = world.logs.get("run_resume_fan");
    const events = (await log?.all()) ?? [];
    const sixth = events.filter((e) => e.type === "StepSucceeded")[5];
    log?.truncateAfter(events.indexOf(sixth as never) + 1);
    calls.clear();
    const again = await runWorkflow(workflow, { numbers: numbers(10) }, { world, runId: "run_resume_fan", lwir: doc });
    expect(again.output).toEqual(numbers(10).map((x) => x.n * 10));
    // Branches 0–5 had finished before the cut; only 6–9 run again, once each.
    expect([...calls.entries()].sort(([a], [b]) => a - b)).toEqual([
      [6, 1],
      [7, 1],
      [8, 1],
      [9, 1],
    ]);
  });

  it("refuses at plan time items whose type is not an array (validator @2)", async () => {
    const { workflow, world } = setup(async ({ n }) => n);
    const r = await runWorkflow(
      workflow,
      { numbers: numbers(2) },
      { world, runId: "run_not_array_typed", lwir: lwir({ items: "{{ input.numbers[0] }}" }) },
    );
    expect(r.cause?.code).toBe("lwir_invalid");
    expect(JSON.stringify(r.cause)).toContain("template.type_mismatch");
  });

  it("fails clearly at run time when items is not an array (a field the open input schema does not declare)", async () => {
    const { workflow, world } = setup(async ({ n }) => n);
    const r = await runWorkflow(
      workflow,
      { numbers: numbers(2), extra: 5 },
      { world, runId: "run_not_array", lwir: lwir({ items: "{{ input.extra }}" }) },
    );
    expect(r.cause?.code).toBe("step_failed");
    const failed = ((await world.logs.get("run_not_array")?.all()) ?? []).find((e) => e.type === "StepFailed");
    expect(failed?.payload).toMatchObject({ error: { code: "fanout_items_not_array" } });
  });
});
