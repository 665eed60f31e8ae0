import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { WRITTEN_ONCE_TTL_MS, writtenOnce } from "../../src/engine/written-once.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

const noop = tool({ description: "Does nothing", inputSchema: z.object({}), execute: async () => ({ ok: true }) });
const workflow = defineWorkflow({
  id: "written.once",
  description: "One no-op step.",
  input: z.object({ n: z.number() }),
  output: { mode: "json" },
  models: [model(MOCK, { description: "unused" })],
  planner: { model: MOCK, system: "unused" },
  tools: { noop },
});
const LWIR = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "written.once", version: "0.1.0" },
  input: { schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
  output: { schema: true },
  permissions: { models: [], tools: ["noop"], secrets: [], network: [] },
  steps: [{ id: "noop", uses: "tool.call", needs: [], with: { tool: "noop", input: {} }, output: { mode: "json" } }],
};

describe("content-addressed rows are written once per isolate", () => {
  it("the second run of the same definition and plan writes no projection and no registration, and still logs its version", async () => {
    const world = new MemoryWorld({ models: { resolve: () => ({ model: MOCK, offline: false }) } });
    const putDefinition = vi.spyOn(world.versions, "putDefinition");
    const registerVersion = vi.spyOn(world.versions, "registerVersion");
    const first = await runWorkflow(workflow, { n: 1 }, { world, runId: "run_once_1", lwir: LWIR });
    const second = await runWorkflow(workflow, { n: 2 }, { world, runId: "run_once_2", lwir: LWIR });
    expect([first.status, second.status]).toEqual(["completed", "completed"]);
    expect(second.versionId).toBe(first.versionId);
    expect(putDefinition).toHaveBeenCalledTimes(1);
    expect(registerVersion).toHaveBeenCalledTimes(1);
    const registered = (await world.events("run_once_2")).filter((e) => e.type === "WorkflowVersionRegistered");
    expect(registered).toHaveLength(1);
    // Another plan of the same definition is registered.
    const other = { ...LWIR, metadata: { ...LWIR.metadata, description: "another plan" } };
    await runWorkflow(workflow, { n: 3 }, { world, runId: "run_once_3", lwir: other });
    expect(registerVersion).toHaveBeenCalledTimes(2);
  });

  it("callers that come while the write is in flight share it: one write, and a failure fails each of them once", async () => {
    const store = {};
    let calls = 0;
    let finish = () => {};
    const write = () => {
      calls++;
      return new Promise<void>((done) => {
        finish = done;
      });
    };
    const together = [writtenOnce(store, "k", 0, write), writtenOnce(store, "k", 0, write), writtenOnce(store, "k", 1, write)];
    finish();
    await Promise.all(together);
    expect(calls).toBe(1);
    await writtenOnce(store, "k", 2, write);
    expect(calls).toBe(1);
    const failing = () => {
      calls++;
      return Promise.reject(new Error("D1 is down"));
    };
    const both = [writtenOnce(store, "f", 0, failing), writtenOnce(store, "f", 0, failing)];
    await expect(Promise.all(both)).rejects.toThrow("D1 is down");
    await expect(both[1]).rejects.toThrow("D1 is down");
    expect(calls).toBe(2);
    await writtenOnce(store, "f", 0, async () => {
      calls++;
    });
    expect(calls).toBe(3);
  });

  it("a write that failed is not remembered; another store is written on its own", async () => {
    const store = {};
    let calls = 0;
    await expect(
      writtenOnce(store, "k", 0, async () => {
        calls++;
        throw new Error("D1 is down");
      }),
    ).rejects.toThrow("D1 is down");
    await writtenOnce(store, "k", 0, async () => {
      calls++;
    });
    await writtenOnce(store, "k", 0, async () => {
      calls++;
    });
    await writtenOnce({}, "k", 0, async () => {
      calls++;
    });
    expect(calls).toBe(3);
  });

  it("remembers a write for WRITTEN_ONCE_TTL_MS only: a version deleted since is registered again", async () => {
    const store = {};
    let calls = 0;
    const write = async () => {
      calls++;
    };
    await writtenOnce(store, "k", 1_000, write);
    await writtenOnce(store, "k", 1_000 + WRITTEN_ONCE_TTL_MS - 1, write);
    expect(calls).toBe(1);
    await writtenOnce(store, "k", 1_000 + WRITTEN_ONCE_TTL_MS, write);
    expect(calls).toBe(2);
    // A clock that went back is no proof the write is recent: written again.
    await writtenOnce(store, "k", 0, write);
    expect(calls).toBe(3);
  });
});
