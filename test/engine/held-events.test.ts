/**
 * One synced write per chained step (src/engine/held-events.ts), in the run object: a step that
 * finishes alone has its `StepSucceeded` carried by the next step's first append; with another
 * step in flight it is appended on its own. A crash before the carrying append re-runs the step
 * (at-least-once, same idempotency key); a crash after it re-runs nothing that had finished.
 */
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogOf } from "../../src/engine/run-environment.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring, type WiringOverrides } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

afterEach(() => overrideWiring({}));

type Step = { id: string; needs: string[]; tool: "inc" | "gated" };

/** A workflow whose `inc` adds one to `n` and whose `gated` does the same once `gate` opens; calls counted by idempotency key. */
function rig(gate: Promise<void> = Promise.resolve()) {
  const keys: string[] = [];
  const counted =
    (wait: () => Promise<void>) =>
    async ({ n }: { n: number }, options: { toolCallId: string }) => {
      keys.push(options.toolCallId);
      await wait();
      return { n: n + 1 };
    };
  const io = { inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number() }) };
  const inc = tool({ description: "Adds one", ...io, execute: counted(() => Promise.resolve()) });
  const gated = tool({ description: "Adds one when the test lets it", ...io, execute: counted(() => gate) });
  const workflow = defineWorkflow({
    id: "chain.held",
    description: "Adds one, step by step.",
    input: z.object({ n: z.number(), ns: z.array(z.number()) }),
    output: { mode: "json" },
    models: [model(MOCK, { description: "unused" })],
    planner: { model: MOCK, system: "unused" },
    tools: { inc, gated },
  });
  return { keys, workflow };
}

function lwirOf(steps: readonly Step[], forEach?: { items: string; maxConcurrency: number }) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "chain.held", version: "0.1.0" },
    input: {
      schema: {
        type: "object",
        properties: { n: { type: "number" }, ns: { type: "array", items: { type: "number" } } },
        required: ["n", "ns"],
      },
    },
    output: { schema: true },
    permissions: { models: [], tools: ["inc", "gated"], secrets: [], network: [] },
    steps: steps.map((s) => ({
      id: s.id,
      uses: "tool.call",
      needs: s.needs,
      ...(forEach ? { forEach } : {}),
      with: {
        tool: s.tool,
        input: { n: forEach ? "{{ item }}" : s.needs.length === 0 ? "{{ input.n }}" : `{{ steps.${s.needs[0]}.output.n }}` },
      },
      output: { mode: "json" },
    })),
  };
}

const CHAIN: Step[] = [
  { id: "a", needs: [], tool: "inc" },
  { id: "b", needs: ["a"], tool: "inc" },
  { id: "c", needs: ["b"], tool: "inc" },
];

/** Starts the run with `hooks` wired (the hooks also record each durable batch) and drives it to its end. */
async function run(
  runId: string,
  steps: readonly Step[],
  workflow: ReturnType<typeof rig>["workflow"],
  hooks: WiringOverrides = {},
  lwir: unknown = lwirOf(steps),
) {
  const batches: string[][] = [];
  overrideWiring({
    models: { resolve: () => ({ model: MOCK, offline: false }) },
    workflows: catalogOf([{ definition: workflow, tools: {} }]),
    ...hooks,
    afterAppend: (events, ctx) => {
      batches.push(events.map(label));
      hooks.afterAppend?.(events, ctx);
    },
  });
  await runStub(runId).start({ runId, workflowId: "chain.held", input: { n: 1, ns: [1, 2, 3] }, trigger: { kind: "lwir" }, lwir });
  const view = await driveToEnd(runId);
  const events = await runStub(runId).events({ limit: 1_000 });
  return { view, events, batches, steps: events.filter((e) => e.type.startsWith("Step")).map(label) };
}

function label(event: RunEvent | NewRunEvent): string {
  const path = (event.payload as { stepPath?: string }).stepPath;
  return path === undefined ? event.type : `${event.type} ${path}`;
}

/** Each step's events in today's order: scheduled, started, succeeded, one step after the other. */
const CHAIN_ORDER = ["a", "b", "c"].flatMap((id) => [`StepScheduled c1/${id}`, `StepStarted c1/${id}`, `StepSucceeded c1/${id}`]);

describe("one synced write per chained step", () => {
  it("carries each StepSucceeded in the next step's first append, in the same order", async () => {
    const { keys, workflow } = rig();
    const { view, steps, batches } = await run("run_held_chain", CHAIN, workflow);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ n: 4 });
    expect(steps).toEqual(CHAIN_ORDER);
    expect(batches).toContainEqual(["StepSucceeded c1/a", "StepScheduled c1/b", "StepStarted c1/b"]);
    expect(batches).toContainEqual(["StepSucceeded c1/b", "StepScheduled c1/c", "StepStarted c1/c"]);
    // The last step has nothing to carry it: appended on its own before the run ends.
    expect(batches).toContainEqual(["StepSucceeded c1/c"]);
    // One append per step in the chain: a's start, then one carrying each result and the next start.
    expect(batches.filter((b) => b.some((e) => e.startsWith("Step")))).toHaveLength(4);
    expect(keys).toEqual(["a", "b", "c"].map((id) => `run_held_chain:c1/${id}:a1`));
  });

  it("appends a result on its own while another step is in flight", async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { workflow } = rig(gate);
    const steps: Step[] = [
      { id: "a", needs: [], tool: "inc" },
      { id: "b", needs: [], tool: "gated" },
      { id: "c", needs: ["b", "a"], tool: "inc" },
    ];
    // b answers only once a's result is durable (a finished with b in flight), and a task later,
    // when the executor has taken a off its steps in flight: b then finishes alone.
    const { view, batches } = await run("run_held_parallel", steps, workflow, {
      afterAppend: (events) => {
        if (events.some((e) => label(e) === "StepSucceeded c1/a")) setTimeout(open, 0);
      },
    });
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ n: 3 });
    expect(batches).toContainEqual(["StepSucceeded c1/a"]);
    // b finished alone: its result goes out with c's start.
    expect(batches).toContainEqual(["StepSucceeded c1/b", "StepScheduled c1/c", "StepStarted c1/c"]);
  });

  it("a crash before the carrying append runs the finished step again, with the same key", async () => {
    const { keys, workflow } = rig();
    let crashed = false;
    const { view, events, steps } = await run("run_held_crash_before", CHAIN, workflow, {
      beforeAppend: (batch, ctx) => {
        if (!crashed && batch.some((e) => label(e) === "StepSucceeded c1/a")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    expect(crashed).toBe(true);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ n: 4 });
    // a's result was lost with the batch that carried it: a ran again (at-least-once), same key; b ran once.
    expect(keys).toEqual([
      "run_held_crash_before:c1/a:a1",
      "run_held_crash_before:c1/a:a1",
      "run_held_crash_before:c1/b:a1",
      "run_held_crash_before:c1/c:a1",
    ]);
    // The log is today's: a's StepStarted (durable before the crash) is not written twice.
    expect(steps).toEqual(CHAIN_ORDER);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it("a crash after the carrying append re-runs nothing that had finished", async () => {
    const { keys, workflow } = rig();
    let crashed = false;
    const { view, steps } = await run("run_held_crash_after", CHAIN, workflow, {
      afterAppend: (batch, ctx) => {
        if (!crashed && batch.some((e) => label(e) === "StepSucceeded c1/a")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    expect(crashed).toBe(true);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ n: 4 });
    expect(keys).toEqual(["a", "b", "c"].map((id) => `run_held_crash_after:c1/${id}:a1`));
    expect(steps).toEqual(CHAIN_ORDER);
  });

  it("a fan-out worker carries its branch's result in its next branch's start", async () => {
    const { keys, workflow } = rig();
    const steps: Step[] = [{ id: "each", needs: [], tool: "inc" }];
    const lwir = lwirOf(steps, { items: "{{ input.ns }}", maxConcurrency: 1 });
    const { view, batches } = await run("run_held_fan_out", steps, workflow, {}, lwir);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }]);
    expect(batches).toContainEqual(["StepSucceeded c1/each[0]", "StepStarted c1/each[1]"]);
    expect(batches).toContainEqual(["StepSucceeded c1/each[1]", "StepStarted c1/each[2]"]);
    // The worker's last branch is appended on its own before the fan-out's own result.
    expect(batches).toContainEqual(["StepSucceeded c1/each[2]"]);
    expect(keys).toHaveLength(3);
  });

  it("a decision's result goes out with the skip it causes", async () => {
    const { workflow } = rig();
    const tail = lwirOf([]);
    const inc = (id: string, needs: string[], n: string) => ({
      id,
      uses: "tool.call",
      needs,
      with: { tool: "inc", input: { n } },
      output: { mode: "json" },
    });
    const lwir = {
      ...tail,
      steps: [
        { id: "route", uses: "decision", needs: [], with: { cases: [{ when: "{{ gt(input.n, 100) }}", step: "big" }], default: "small" } },
        inc("big", ["route"], "{{ input.n }}"),
        inc("small", ["route"], "{{ input.n }}"),
        inc("done", ["big", "small"], "{{ default(steps.big.output.n, steps.small.output.n) }}"),
      ],
    };
    const { view, batches, steps } = await run("run_held_decision", [], workflow, {}, lwir);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ n: 3 });
    expect(batches).toContainEqual(["StepSucceeded c1/route", "StepSkipped c1/big"]);
    expect(steps.indexOf("StepSkipped c1/big")).toBe(steps.indexOf("StepSucceeded c1/route") + 1);
  });
});
