/**
 * A slice writes its own index row behind the work (src/engine/run-host/write-behind-index.ts):
 * a woken run takes its step without waiting for D1, and the row is current again when the slice
 * ends. Checked on the wrapper alone, then in the run object with a `running` write held open.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { writeBehindIndex } from "../../../src/engine/run-host/write-behind-index.ts";
import type { RunIndex, RunIndexEntry } from "../../../src/ports/run-index.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { tool } from "../../../src/sdk/tool.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { rawRunStub, runStub } from "../../support/drive.ts";

afterEach(() => overrideWiring({}));

const entry = (runId: string, status: RunIndexEntry["status"]): RunIndexEntry => ({
  tenant: "default",
  runId,
  workflowId: "w",
  status,
  waitReason: null,
  triggerKind: "http",
  definitionHash: null,
  versionId: null,
  causeCode: null,
  placement: {},
  createdAt: 1,
  updatedAt: 1,
});

/** An index that records each upsert when it lands, each held until `release` lets it go. */
function heldIndex() {
  const landed: string[] = [];
  const pending: (() => void)[] = [];
  const unused = async () => null;
  const index = {
    get: unused,
    list: async () => [],
    tenantUsesVersion: async () => false,
    findAnchor: unused,
    claimAnchor: async () => false,
    cancelAnchor: async () => false,
    upsert: (e: RunIndexEntry) =>
      new Promise<void>((resolve, reject) => {
        pending.push(() => {
          if (e.status === "failed") return reject(new Error(`write of ${e.runId} failed`));
          landed.push(`${e.runId}:${e.status}`);
          resolve();
        });
      }),
  } satisfies RunIndex;
  const release = async () => {
    while (pending.length > 0) {
      pending.shift()?.();
      await Promise.resolve();
      await Promise.resolve();
    }
  };
  return { index, landed, pending, release };
}

describe("writeBehindIndex", () => {
  it("answers the run's own upserts at once, applies them in order, and flush waits for them", async () => {
    const held = heldIndex();
    const runs = writeBehindIndex(held.index, "run_a");
    await runs.upsert(entry("run_a", "running"));
    await runs.upsert(entry("run_a", "completed"));
    expect(held.landed).toEqual([]);
    let flushed = false;
    const flush = runs.flush().then(() => {
      flushed = true;
    });
    await held.release();
    await flush;
    expect(flushed).toBe(true);
    expect(held.landed).toEqual(["run_a:running", "run_a:completed"]);
  });

  it("passes another run's row straight through, and the flush reports the first write that failed", async () => {
    const held = heldIndex();
    const runs = writeBehindIndex(held.index, "run_a");
    const child = runs.upsert(entry("run_child", "pending"));
    expect(held.pending).toHaveLength(1);
    await held.release();
    await child;
    await runs.upsert(entry("run_a", "failed"));
    await runs.upsert(entry("run_a", "completed"));
    const flush = runs.flush();
    await held.release();
    await expect(flush).rejects.toThrow("write of run_a failed");
    // A write queued after a failed one is not applied out of order.
    expect(held.landed).toEqual(["run_child:pending"]);
  });
});

describe("a slice does not wait for its own index row", () => {
  it("takes its step while the run's `running` row is still being written, and ends the slice with the row current", async () => {
    const runId = `run_wbi_${crypto.randomUUID().slice(0, 8)}`;
    let stepRan = (): void => undefined;
    const ran = new Promise<void>((resolve) => {
      stepRan = resolve;
    });
    let releaseRunning = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      releaseRunning = resolve;
    });
    const io = { inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number() }) };
    const mock = new MockLanguageModelV4({ provider: "mock", modelId: "m" });
    const workflow = defineWorkflow({
      id: "index.behind",
      description: "Adds one.",
      input: z.object({ n: z.number() }),
      output: { mode: "json" },
      models: [model(mock, { description: "unused" })],
      planner: { model: mock, system: "unused" },
      tools: {
        inc: tool({
          description: "Adds one",
          ...io,
          execute: async ({ n }: { n: number }) => {
            stepRan();
            return { n: n + 1 };
          },
        }),
      },
    });
    overrideWiring({
      models: { resolve: () => ({ model: mock, offline: false }) },
      workflows: catalogOf([{ definition: workflow, tools: {} }]),
      runs: (index) => ({
        ...index,
        get: index.get.bind(index),
        list: index.list.bind(index),
        tenantUsesVersion: index.tenantUsesVersion.bind(index),
        findAnchor: index.findAnchor.bind(index),
        claimAnchor: index.claimAnchor.bind(index),
        cancelAnchor: index.cancelAnchor.bind(index),
        upsert: async (e) => {
          if (e.runId === runId && e.status === "running") await gate;
          return index.upsert(e);
        },
      }),
    });
    const lwir = {
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "index.behind", version: "0.1.0" },
      input: { schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
      output: { schema: true },
      permissions: { models: [], tools: ["inc"], secrets: [], network: [] },
      steps: [{ id: "a", uses: "tool.call", needs: [], with: { tool: "inc", input: { n: "{{ input.n }}" } }, output: { mode: "json" } }],
    };
    await runStub(runId).start({ runId, workflowId: "index.behind", input: { n: 1 }, trigger: { kind: "lwir" }, lwir });
    let sliceDone = false;
    const slice = runDurableObjectAlarm(rawRunStub(runId)).then(() => {
      sliceDone = true;
    });
    // The tool runs although the `running` row has not landed; the slice waits for it before it ends.
    await ran;
    expect(sliceDone).toBe(false);
    releaseRunning();
    await slice;
    const view = await runStub(runId).status();
    expect(view).toMatchObject({ status: "completed", output: { n: 2 } });
  });
});
