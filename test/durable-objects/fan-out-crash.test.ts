import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

afterEach(() => overrideWiring({}));

describe("a crash in the middle of a fan-out (run object aborted)", () => {
  it("resumes from the alarm without re-running finished branches", async () => {
    const calls = new Map<number, number>();
    const square = tool({
      description: "Squares n",
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }: { n: number }) => {
        calls.set(n, (calls.get(n) ?? 0) + 1);
        return n * n;
      },
    });
    const workflow = defineWorkflow({
      id: "fan.crash",
      description: "Fans out over numbers.",
      input: z.object({ numbers: z.array(z.number()) }),
      output: { mode: "json" },
      models: [model(MOCK, { description: "unused" })],
      planner: { model: MOCK, system: "unused" },
      tools: { square },
    });
    const lwir = {
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "fan.crash", version: "0.1.0" },
      input: { schema: { type: "object", properties: { numbers: { type: "array", items: { type: "number" } } }, required: ["numbers"] } },
      output: { schema: true },
      permissions: { models: [], tools: ["square"], secrets: [], network: [] },
      steps: [
        {
          id: "each",
          uses: "tool.call",
          needs: [],
          forEach: { items: "{{ input.numbers }}", maxConcurrency: 1 },
          with: { tool: "square", input: { n: "{{ item }}" } },
          output: { mode: "json" },
        },
      ],
    };
    let succeeded = 0;
    let crashed = false;
    overrideWiring({
      models: { resolve: () => ({ model: MOCK, offline: false }) },
      workflows: catalogOf([{ definition: workflow, tools: {} }]),
      afterAppend: (events, ctx) => {
        succeeded += events.filter((e) => e.type === "StepSucceeded").length;
        if (!crashed && succeeded === 4) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8];
    await runStub("run_fan_crash").start({
      runId: "run_fan_crash",
      workflowId: "fan.crash",
      input: { numbers },
      trigger: { kind: "lwir" },
      lwir,
    });
    const view = await driveToEnd("run_fan_crash");
    expect(crashed).toBe(true);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual(numbers.map((n) => n * n));
    // Branches 1–4 finished before the abort; none of them ran twice.
    expect([1, 2, 3, 4].map((n) => calls.get(n))).toEqual([1, 1, 1, 1]);
    const events = await runStub("run_fan_crash").events({ limit: 1_000 });
    const paths = events.filter((e) => e.type === "StepSucceeded").map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(new Set(paths).size).toBe(paths.length);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });
});
