import { describe, expect, it } from "vitest";
import { MemoryRunIndex } from "../../../src/adapters/memory/memory-run-index.ts";
import type { BulkPorts } from "../../../src/engine/bulk/bulk-actions.ts";
import { type BulkJobState, newBulkJob, stepBulkJob, viewBulkJob } from "../../../src/engine/bulk/bulk-job.ts";
import type { BulkFilter } from "../../../src/ports/bulk-jobs.ts";
import type { RunHandle, RunHandles } from "../../../src/ports/run-handle.ts";

/**
 * The walk of a bulk job over the run index, as pure code over ports: pages of the given size,
 * newest first, the createdAfter/createdBefore window, each page read once and each run acted on
 * once; a dry run acts on none.
 */
async function indexOf(count: number): Promise<MemoryRunIndex> {
  const runs = new MemoryRunIndex();
  for (let i = 0; i < count; i++)
    await runs.upsert({
      tenant: "t",
      runId: `run_${String(i).padStart(3, "0")}`,
      workflowId: i % 2 === 0 ? "wf.even" : "wf.odd",
      status: "waiting",
      triggerKind: "http",
      definitionHash: null,
      versionId: null,
      causeCode: null,
      placement: {},
      createdAt: 1_000 + i * 10,
      updatedAt: 1_000 + i * 10,
    });
  return runs;
}

function portsOf(runs: MemoryRunIndex, cancelled: string[], pagesRead: number[]): BulkPorts {
  const handle = (runId: string) => ({ cancel: async () => cancelled.push(runId) }) as unknown as RunHandle;
  const handles: RunHandles = { open: (_tenant, runId) => handle(runId), jurisdictionsEnforced: () => false };
  const counted = Object.assign(Object.create(runs), {
    list: async (q: Parameters<MemoryRunIndex["list"]>[0]) => {
      const rows = await runs.list(q);
      pagesRead.push(rows.length);
      return rows;
    },
  }) as MemoryRunIndex;
  return { runs: counted, runHandles: handles, clock: { now: () => 99_999 } } as unknown as BulkPorts;
}

async function run(filter: BulkFilter, dryRun: boolean, count = 12, pageSize = 5) {
  const runs = await indexOf(count);
  const cancelled: string[] = [];
  const pagesRead: number[] = [];
  let stored: BulkJobState | null = newBulkJob({ jobId: "bulk_x", tenant: "t", action: "cancel", filter, dryRun, by: "dev", createdAt: 1 });
  const store = {
    read: async () => stored && structuredClone(stored),
    write: async (s: BulkJobState) => {
      stored = structuredClone(s);
    },
  };
  const ports = portsOf(runs, cancelled, pagesRead);
  let steps = 0;
  while ((await stepBulkJob(ports, store, pageSize)) === "more") steps++;
  return { view: viewBulkJob(stored as unknown as BulkJobState), cancelled, pagesRead, steps };
}

describe("a bulk job's walk over the run index", () => {
  it("acts on every match once, a page per step, newest first", async () => {
    const { view, cancelled, pagesRead } = await run({ workflowId: "wf.even" }, false);
    expect(cancelled).toEqual(["run_010", "run_008", "run_006", "run_004", "run_002", "run_000"]);
    expect(view).toMatchObject({ state: "done", matched: 6, done: 6, failed: 0, endedAt: 99_999 });
    expect(pagesRead).toEqual([5, 1]);
  });

  it("keeps to createdAfter (inclusive) and createdBefore (exclusive), and stops at the first older run", async () => {
    const { cancelled, pagesRead } = await run({ createdAfter: 1_030, createdBefore: 1_090 }, false);
    expect(cancelled).toEqual(["run_008", "run_007", "run_006", "run_005", "run_004", "run_003"]);
    // Nine runs are older than createdBefore; the second page holds runs older than createdAfter,
    // which ends the walk there.
    expect(pagesRead).toEqual([5, 4]);
  });

  it("a dry run counts and samples, acting on nothing", async () => {
    const { view, cancelled } = await run({}, true, 7, 3);
    expect(cancelled).toEqual([]);
    expect(view).toMatchObject({
      matched: 7,
      done: 0,
      sample: ["run_006", "run_005", "run_004", "run_003", "run_002", "run_001", "run_000"],
    });
  });
});
