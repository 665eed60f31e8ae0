import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { backoffMs } from "../../src/engine/run-step.ts";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";
import { result } from "../support/scripted-models.ts";

const FAST = new MockLanguageModelV4({
  provider: "mock",
  modelId: "fast",
  doGenerate: async () => result([{ type: "text", text: '"ok"' }]),
});

/** A fake clock whose sleep advances it at once. */
function fakeTime(start = 1_800_000_000_000) {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: { now: () => now },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}

function workflowWith(
  tools: Record<string, ReturnType<typeof tool>>,
  options: { maxConcurrency?: number; slowModel?: MockLanguageModelV4; timeoutMs?: number } = {},
) {
  return defineWorkflow({
    id: "runtime.test",
    description: "Exercises the step runtime.",
    input: z.object({ n: z.number() }),
    output: { mode: "json" },
    models: [model(options.slowModel ?? FAST, { description: "mock" })],
    planner: { model: FAST, system: "unused: these runs carry their LWIR" },
    tools,
    ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}

function lwirOf(steps: unknown[], permissions: { models?: string[]; tools?: string[] } = {}) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "runtime.test", version: "0.1.0" },
    input: { schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
    output: { schema: true },
    permissions: { models: permissions.models ?? [], tools: permissions.tools ?? [], secrets: [], network: [] },
    steps,
  };
}

const types = (events: readonly RunEvent[]) => events.map((e) => e.type);

describe("tool.call steps", () => {
  it("calls the registered tool with the rendered input and an idempotency key from run, step and attempt", async () => {
    const calls: { input: unknown; key: string }[] = [];
    const double = tool({
      description: "Doubles n",
      inputSchema: z.object({ n: z.number() }),
      outputSchema: z.object({ value: z.number() }),
      execute: async (input: { n: number }, options: { toolCallId: string }) => {
        calls.push({ input, key: options.toolCallId });
        return { value: input.n * 2 };
      },
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) } });
    const lwir = lwirOf(
      [
        { id: "first", uses: "tool.call", needs: [], with: { tool: "double", input: { n: "{{ input.n }}" } }, output: { mode: "json" } },
        {
          id: "second",
          uses: "tool.call",
          needs: ["first"],
          with: { tool: "double", input: { n: "{{ steps.first.output.value }}" } },
          output: { mode: "json" },
        },
      ],
      { tools: ["double"] },
    );
    const r = await runWorkflow(workflowWith({ double }), { n: 5 }, { world, runId: "run_tools", lwir });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ value: 20 });
    expect(calls).toEqual([
      { input: { n: 5 }, key: "run_tools:c1/first:a1" },
      { input: { n: 10 }, key: "run_tools:c1/second:a1" },
    ]);
    const again = await runWorkflow(workflowWith({ double }), { n: 5 }, { world, runId: "run_tools", lwir });
    expect(again.output).toEqual({ value: 20 });
    expect(calls).toHaveLength(2);
  });

  it("refuses LWIR that fails validation or binding with lwir_invalid and its findings", async () => {
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) } });
    const lwir = lwirOf([{ id: "x", uses: "tool.call", needs: [], with: { tool: "missing" }, output: { mode: "json" } }], {
      tools: ["missing"],
    });
    const r = await runWorkflow(workflowWith({}), { n: 1 }, { world, runId: "run_bad_lwir", lwir });
    expect(r.cause?.code).toBe("lwir_invalid");
    expect(JSON.stringify(r.cause?.details)).toContain("binding.tool_not_in_snapshot");
  });

  it("retries a failing tool with exponential backoff on the injected clock, each retry in the log", async () => {
    const time = fakeTime();
    let attempts = 0;
    const flaky = tool({
      description: "Fails twice",
      inputSchema: z.object({}),
      execute: async () => {
        attempts += 1;
        if (attempts < 3) throw new Error(`boom ${attempts}`);
        return { attempts };
      },
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) }, clock: time.clock, sleep: time.sleep });
    const lwir = lwirOf(
      [
        {
          id: "flaky",
          uses: "tool.call",
          needs: [],
          with: { tool: "flaky" },
          output: { mode: "json" },
          retry: { maxAttempts: 3, backoffMs: 1000 },
        },
      ],
      { tools: ["flaky"] },
    );
    const r = await runWorkflow(workflowWith({ flaky }), { n: 1 }, { world, runId: "run_retry", lwir });
    expect(r.output).toEqual({ attempts: 3 });
    const events = (await world.logs.get("run_retry")?.all()) ?? [];
    const retried = events
      .filter((e) => e.type === "StepRetried")
      .map((e) => e.payload as { attempt: number; retryAt: number; error: { code: string; retriable: boolean } });
    expect(retried.map((p) => p.attempt)).toEqual([1, 2]);
    expect(retried.every((p) => p.error.code === "tool_failed" && p.error.retriable)).toBe(true);
    const step = lwir.steps[0] as never;
    expect(time.sleeps).toEqual([backoffMs(step, "run_retry", "c1/flaky", 1), backoffMs(step, "run_retry", "c1/flaky", 2)]);
    expect(time.sleeps[0]).toBeGreaterThanOrEqual(1000);
    expect(time.sleeps[0]).toBeLessThanOrEqual(1500);
    expect(time.sleeps[1]).toBeGreaterThanOrEqual(2000);
    expect(time.sleeps[1]).toBeLessThanOrEqual(3000);
    expect(types(events).filter((t) => t === "StepStarted")).toHaveLength(3);
  });

  it("fails the step when retries run out, with the attempt's error in StepFailed", async () => {
    const broken = tool({ description: "Always fails", inputSchema: z.object({}), execute: async () => Promise.reject(new Error("down")) });
    const time = fakeTime();
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) }, clock: time.clock, sleep: time.sleep });
    const lwir = lwirOf(
      [
        {
          id: "b",
          uses: "tool.call",
          needs: [],
          with: { tool: "broken" },
          output: { mode: "json" },
          retry: { maxAttempts: 2, backoffMs: 10 },
        },
      ],
      { tools: ["broken"] },
    );
    const r = await runWorkflow(workflowWith({ broken }), { n: 1 }, { world, runId: "run_fail", lwir });
    expect(r.cause?.code).toBe("step_failed");
    const failed = ((await world.logs.get("run_fail")?.all()) ?? []).find((e) => e.type === "StepFailed");
    expect(failed?.payload).toMatchObject({ stepPath: "c1/b", attempt: 2, error: { code: "tool_failed", retriable: true } });
  });

  it("times a step out by its timeoutMs and records the deadline in the log", async () => {
    const hang = tool({
      description: "Never answers",
      inputSchema: z.object({}),
      execute: (_: unknown, o: { abortSignal?: AbortSignal }) =>
        new Promise((_, reject) => o.abortSignal?.addEventListener("abort", () => reject(new Error("aborted")))),
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) } });
    const lwir = lwirOf([{ id: "h", uses: "tool.call", needs: [], with: { tool: "hang" }, output: { mode: "json" }, timeoutMs: 50 }], {
      tools: ["hang"],
    });
    const r = await runWorkflow(workflowWith({ hang }), { n: 1 }, { world, runId: "run_timeout", lwir });
    expect(r.cause?.code).toBe("step_failed");
    const events = (await world.logs.get("run_timeout")?.all()) ?? [];
    expect(events.find((e) => e.type === "StepStarted")?.payload).toMatchObject({ deadline: expect.any(Number) });
    expect(events.find((e) => e.type === "StepFailed")?.payload).toMatchObject({ error: { code: "step_timeout" } });
  });

  it("a tool changed since the version was locked fails the resumed run with capability_drift", async () => {
    const v1 = tool({ description: "Looks a customer up", inputSchema: z.object({}), execute: async () => ({ plan: "pro" }) });
    const v2 = tool({ description: "Looks a customer up by email", inputSchema: z.object({}), execute: async () => ({ plan: "pro" }) });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) } });
    const lwir = lwirOf([{ id: "l", uses: "tool.call", needs: [], with: { tool: "lookup" }, output: { mode: "json" } }], {
      tools: ["lookup"],
    });
    await runWorkflow(workflowWith({ lookup: v1 }), { n: 1 }, { world, runId: "run_tool_drift", lwir });
    const log = world.logs.get("run_tool_drift");
    const events = (await log?.all()) ?? [];
    log?.truncateAfter(events.findIndex((e) => e.type === "RunStarted") + 1);
    const r = await runWorkflow(workflowWith({ lookup: v2 }), { n: 1 }, { world, runId: "run_tool_drift", lwir });
    expect(r.cause?.code).toBe("capability_drift");
  });
});

describe("the run's own timeout", () => {
  it("fails the run with run_timeout and aborts the call in flight", async () => {
    let aborted = false;
    const hang = tool({
      description: "Never answers",
      inputSchema: z.object({}),
      execute: (_: unknown, o: { abortSignal?: AbortSignal }) =>
        new Promise((_, reject) =>
          o.abortSignal?.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("aborted"));
          }),
        ),
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) } });
    const lwir = lwirOf([{ id: "h", uses: "tool.call", needs: [], with: { tool: "hang" }, output: { mode: "json" } }], { tools: ["hang"] });
    const r = await runWorkflow(workflowWith({ hang }, { timeoutMs: 100 }), { n: 1 }, { world, runId: "run_run_timeout", lwir });
    expect(r.cause?.code).toBe("run_timeout");
    expect(aborted).toBe(true);
  });

  it("a run resumed after its deadline fails at once, calling nothing", async () => {
    const time = fakeTime();
    let calls = 0;
    const count = tool({
      description: "Counts",
      inputSchema: z.object({}),
      execute: async () => {
        calls += 1;
        return calls;
      },
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) }, clock: time.clock, sleep: time.sleep });
    const lwir = lwirOf([{ id: "c", uses: "tool.call", needs: [], with: { tool: "count" }, output: { mode: "json" } }], {
      tools: ["count"],
    });
    const workflow = workflowWith({ count }, { timeoutMs: 60_000 });
    await runWorkflow(workflow, { n: 1 }, { world, runId: "run_late", lwir });
    const log = world.logs.get("run_late");
    log?.truncateAfter(1);
    await time.sleep(120_000);
    calls = 0;
    const r = await runWorkflow(workflow, { n: 1 }, { world, runId: "run_late", lwir });
    expect(r.cause?.code).toBe("run_timeout");
    expect(calls).toBe(0);
  });
});

describe("scheduling", () => {
  it("never has more than maxConcurrency steps in flight (20 independent steps, limit 5)", async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = tool({
      description: "Takes a moment",
      inputSchema: z.object({ i: z.number() }),
      execute: async ({ i }: { i: number }) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 10));
        inFlight -= 1;
        return i;
      },
    });
    const branches = Array.from({ length: 20 }, (_, i) => ({
      id: `b${i}`,
      uses: "tool.call",
      needs: [],
      with: { tool: "slow", input: { i } },
      output: { mode: "json" },
    }));
    const join = {
      id: "join",
      uses: "tool.call",
      needs: branches.map((b) => b.id),
      with: { tool: "slow", input: { i: 99 } },
      output: { mode: "json" },
    };
    const world = new MemoryWorld({ models: { resolve: () => ({ model: FAST, offline: false }) } });
    const r = await runWorkflow(
      workflowWith({ slow }, { maxConcurrency: 5 }),
      { n: 1 },
      { world, runId: "run_limit", lwir: lwirOf([...branches, join], { tools: ["slow"] }) },
    );
    expect(r.output).toBe(99);
    expect(peak).toBe(5);
  });

  it("runs eight independent ai.generate steps concurrently: all eight model calls are in flight at once", async () => {
    // Each call waits until all eight have arrived (a barrier), so the count of calls in flight
    // at once is what the engine allowed. A fallback timer releases the barrier so that an engine
    // running them one by one fails the assertion instead of hanging.
    const STEPS = 8;
    let inFlight = 0;
    let maxInFlight = 0;
    let release: () => void = () => {};
    const allArrived = new Promise<void>((done) => {
      release = done;
    });
    const fallback = setTimeout(release, 2_000);
    const slowModel = new MockLanguageModelV4({
      provider: "mock",
      modelId: "slow",
      doGenerate: async (_: LanguageModelV4CallOptions) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        if (inFlight === STEPS) release();
        await allArrived;
        inFlight -= 1;
        return result([{ type: "text", text: "done" }]);
      },
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model: slowModel, offline: false }) } });
    const gen = (id: string) => ({
      id,
      uses: "ai.generate",
      needs: [],
      with: { model: "slow", prompt: `step ${id}` },
      output: { mode: "text" },
    });
    const eight = Array.from({ length: STEPS }, (_, i) => gen(`g${i}`));
    const tail = { id: "tail", uses: "tool.call", needs: eight.map((s) => s.id), with: { tool: "noop" }, output: { mode: "json" } };
    const noop = tool({ description: "Does nothing", inputSchema: z.object({}), execute: async () => "joined" });
    try {
      const r = await runWorkflow(
        workflowWith({ noop }, { slowModel, maxConcurrency: STEPS }),
        { n: 1 },
        { world, runId: "run_eight", lwir: lwirOf([...eight, tail], { models: ["slow"], tools: ["noop"] }) },
      );
      expect(r.output).toBe("joined");
    } finally {
      clearTimeout(fallback);
    }
    expect(slowModel.doGenerateCalls.length).toBe(STEPS);
    expect(maxInFlight).toBe(STEPS);
  });
});

describe("ai.generate repairs", () => {
  it("re-asks a model whose output fails the step schema, telling it why, within the default budget", async () => {
    const answers = ['{"label": 7}', '{"label": "billing"}'];
    const model = new MockLanguageModelV4({
      provider: "mock",
      modelId: "slow",
      doGenerate: async () => result([{ type: "text", text: answers.shift() ?? "{}" }]),
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model, offline: false }) } });
    const step = {
      id: "label",
      uses: "ai.generate",
      needs: [],
      with: { model: "slow", prompt: "Label the ticket." },
      output: { mode: "object", schema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] } },
    };
    const r = await runWorkflow(
      workflowWith({}, { slowModel: model }),
      { n: 1 },
      { world, runId: "run_repair_ai", lwir: lwirOf([step], { models: ["slow"] }) },
    );
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ label: "billing" });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain("Your previous answer was refused");
    const retried = ((await world.logs.get("run_repair_ai")?.all()) ?? []).filter((e) => e.type === "StepRetried");
    expect(retried.map((e) => (e.payload as { error: { code: string } }).error.code)).toEqual(["output_invalid"]);
  });

  it("treats unparseable output as repairable too, and fails after the budget", async () => {
    const model = new MockLanguageModelV4({
      provider: "mock",
      modelId: "slow",
      doGenerate: async () => result([{ type: "text", text: "not json at all" }]),
    });
    const world = new MemoryWorld({ models: { resolve: () => ({ model, offline: false }) } });
    const step = {
      id: "label",
      uses: "ai.generate",
      needs: [],
      with: { model: "slow", prompt: "Label it." },
      output: { mode: "object", schema: { type: "object" } },
    };
    const r = await runWorkflow(
      workflowWith({}, { slowModel: model }),
      { n: 1 },
      { world, runId: "run_repair_fail", lwir: lwirOf([step], { models: ["slow"] }) },
    );
    expect(r.cause?.code).toBe("step_failed");
    expect(model.doGenerateCalls).toHaveLength(3);
  });
});

describe("usage and cost", () => {
  it("sums tokens per run, prices them from the slot's declared pricing, and is null when unpriced", async () => {
    const priced = new MockLanguageModelV4({
      provider: "mock",
      modelId: "priced",
      doGenerate: async () => result([{ type: "text", text: "ok" }]),
    });
    const pricedWorkflow = defineWorkflow({
      id: "runtime.test",
      description: "Exercises the step runtime.",
      input: z.object({ n: z.number() }),
      output: { mode: "json" },
      models: [model(priced, { description: "priced", id: "priced", pricing: { inputPerMillionTokens: 2, outputPerMillionTokens: 10 } })],
      planner: { model: FAST, system: "unused" },
    });
    const gen = { id: "g", uses: "ai.generate", needs: [], with: { model: "priced", prompt: "hi" }, output: { mode: "text" } };
    const world = new MemoryWorld({ models: { resolve: () => ({ model: priced, offline: false }) } });
    const r = await runWorkflow(pricedWorkflow, { n: 1 }, { world, runId: "run_cost", lwir: lwirOf([gen], { models: ["priced"] }) });
    // The scripted result reports 100 input and 20 output tokens.
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 20, totalTokens: 120, costUsd: (100 * 2 + 20 * 10) / 1_000_000 });
    const unpriced = new MemoryWorld({ models: { resolve: () => ({ model: priced, offline: false }) } });
    const u = await runWorkflow(
      workflowWith({}, { slowModel: priced }),
      { n: 1 },
      { world: unpriced, runId: "run_no_cost", lwir: lwirOf([gen], { models: ["priced"] }) },
    );
    expect(u.cause).toBeUndefined();
    expect(u.usage?.costUsd).toBeNull();
    expect(u.usage?.totalTokens).toBe(120);
  });
});
