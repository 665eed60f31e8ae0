import { env } from "cloudflare:workers";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { blobKey, R2BlobStore } from "../../src/adapters/r2/r2-blob-store.ts";
import { INLINE_OUTPUT_LIMIT, isBlobRef, recordable, resolveRecorded } from "../../src/engine/blob-refs.ts";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { digestText } from "../../src/json/digest.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });
const BIG = "x".repeat(300 * 1024);

describe("large step outputs go to the blob store by digest", () => {
  it("records a reference in the event, and the next step and the run output still see the value", async () => {
    let produced = 0;
    const produce = tool({
      description: "Produces a large text",
      inputSchema: z.object({}),
      execute: async () => {
        produced += 1;
        return { text: BIG };
      },
    });
    const measure = tool({
      description: "Measures",
      inputSchema: z.object({ size: z.number() }),
      execute: async ({ size }: { size: number }) => ({ size, text: BIG }),
    });
    const workflow = defineWorkflow({
      id: "blob.flow",
      description: "Moves a large value.",
      input: z.object({}),
      output: { mode: "json" },
      models: [model(MOCK, { description: "unused" })],
      planner: { model: MOCK, system: "unused" },
      tools: { produce, measure },
    });
    const lwir = {
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "blob.flow", version: "0.1.0" },
      input: { schema: { type: "object", properties: {} } },
      output: { schema: true },
      permissions: { models: [], tools: ["measure", "produce"], secrets: [], network: [] },
      steps: [
        { id: "produce", uses: "tool.call", needs: [], with: { tool: "produce" }, output: { mode: "json" } },
        {
          id: "measure",
          uses: "tool.call",
          needs: ["produce"],
          with: { tool: "measure", input: { size: "{{ length(steps.produce.output.text) }}" } },
          output: { mode: "json" },
        },
      ],
    };
    const world = new MemoryWorld({ models: { resolve: () => ({ model: MOCK, offline: false }) } });
    const r = await runWorkflow(workflow, {}, { world, runId: "run_blob", lwir });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ size: BIG.length, text: BIG });
    const events = (await world.logs.get("run_blob")?.all()) ?? [];
    const produced1 = events.find((e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath === "c1/produce");
    const ref = (produced1?.payload as { output: unknown } | undefined)?.output;
    expect(isBlobRef(ref)).toBe(true);
    expect(JSON.stringify(events).length).toBeLessThan(BIG.length);
    expect(isBlobRef((events.at(-1)?.payload as { output: unknown } | undefined)?.output)).toBe(true);

    // Resume after the large output was recorded: it is read back from the blob store, not recomputed.
    world.logs.get("run_blob")?.truncateAfter(events.indexOf(produced1 as never) + 1);
    const again = await runWorkflow(workflow, {}, { world, runId: "run_blob", lwir });
    expect(again.output).toEqual({ size: BIG.length, text: BIG });
    expect(produced).toBe(1);
  });

  it("the R2 adapter round-trips a blob and a corrupted blob is refused", async () => {
    const owner = { tenant: "t_blob", runId: "run_r2" };
    const store = new R2BlobStore(env.BLOBS, owner);
    const ref = await recordable({ big: BIG }, store);
    expect(isBlobRef(ref)).toBe(true);
    expect(await resolveRecorded(ref, store)).toEqual({ big: BIG });
    const digest = (ref as { $blob: `sha256:${string}` }).$blob;
    await env.BLOBS.put(blobKey(owner, digest), '{"big":"tampered"}', { customMetadata: owner });
    await expect(resolveRecorded(ref, store)).rejects.toThrow(/no longer matches its digest/);
    expect(digestText('{"big":"tampered"}')).not.toBe(digest);
  });

  it("keeps small outputs inline", async () => {
    const store = new R2BlobStore(env.BLOBS, { tenant: "t_blob", runId: "run_small" });
    expect(await recordable({ small: "x".repeat(100) }, store)).toEqual({ small: "x".repeat(100) });
    expect(INLINE_OUTPUT_LIMIT).toBe(256 * 1024);
  });
});
