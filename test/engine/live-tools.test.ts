/**
 * A live tool is described (normalized, canonicalized, hashed) once per slice and checked against
 * the lock from that, not once per step (src/engine/steps/tool-call.ts, `liveTools`).
 */
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

/** Runs a chain of `steps` calls of one tool; returns how often the tool's description was read. */
async function descriptionReads(steps: number): Promise<number> {
  let reads = 0;
  const inc = tool({
    description: "Adds one",
    inputSchema: z.object({ n: z.number() }),
    execute: async ({ n }: { n: number }) => ({ n: n + 1 }),
  });
  Object.defineProperty(inc, "description", {
    get: () => {
      reads += 1;
      return "Adds one";
    },
  });
  const workflow = defineWorkflow({
    id: "chain.tools",
    description: "Adds one, step by step.",
    input: z.object({ n: z.number() }),
    output: { mode: "json" },
    models: [model(MOCK, { description: "unused" })],
    planner: { model: MOCK, system: "unused" },
    tools: { inc },
  });
  const ids = Array.from({ length: steps }, (_, i) => `s${i}`);
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "chain.tools", version: "0.1.0" },
    input: { schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
    output: { schema: true },
    permissions: { models: [], tools: ["inc"], secrets: [], network: [] },
    steps: ids.map((id, i) => ({
      id,
      uses: "tool.call",
      needs: i === 0 ? [] : [ids[i - 1]],
      with: { tool: "inc", input: { n: i === 0 ? "{{ input.n }}" : `{{ steps.${ids[i - 1]}.output.n }}` } },
      output: { mode: "json" },
    })),
  };
  const world = new MemoryWorld({ models: { resolve: () => ({ model: MOCK, offline: false }) } });
  const r = await runWorkflow(workflow, { n: 0 }, { world, runId: `run_live_tools_${steps}`, lwir });
  expect(r.status).toBe("completed");
  expect(r.output).toEqual({ n: steps });
  return reads;
}

describe("live tool descriptors", () => {
  it("are described once per slice, however many steps call the tool", async () => {
    const one = await descriptionReads(1);
    expect(one).toBeGreaterThan(0);
    expect(await descriptionReads(6)).toBe(one);
  });
});
