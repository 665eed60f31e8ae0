import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { MemoryRunIndex } from "../../src/adapters/memory/memory-run-index.ts";
import { indexStarted } from "../../src/engine/run-host.ts";
import type { Clock } from "../../src/ports/clock.ts";

const clock: Clock = { now: () => 5_000 };
const REQUEST = { workflowId: "w.one", input: {}, trigger: { kind: "http" as const }, tenant: "t1" };

describe("indexStarted: a started run's row as the run stands now", () => {
  it("right after the start: pending, stamped with the request's time", async () => {
    const log = new MemoryEventLog("run_a", { now: () => 1_000 });
    await log.append([{ type: "RunRequested", payload: REQUEST }]);
    const runs = new MemoryRunIndex();
    await indexStarted({ runId: "run_a", log, runs, clock });
    expect(await runs.get("t1", "run_a")).toMatchObject({ status: "pending", createdAt: 1_000, updatedAt: 1_000, workflowId: "w.one" });
  });

  it("the repair after the run ended meanwhile: indexed ended with its version and cause, never left pending", async () => {
    const log = new MemoryEventLog("run_b", { now: () => 1_000 });
    await log.append([{ type: "RunRequested", payload: REQUEST }]);
    await log.append([
      {
        type: "WorkflowVersionRegistered",
        payload: {
          versionId: "wfver_1",
          versionHash: `sha256:${"a".repeat(64)}`,
          lockHash: `sha256:${"b".repeat(64)}`,
          definitionHash: `sha256:${"c".repeat(64)}`,
          warnings: [],
        },
      },
      { type: "RunFailed", payload: { causeCode: "step_failed", message: "a step failed" } },
    ]);
    const runs = new MemoryRunIndex();
    await indexStarted({ runId: "run_b", log, runs, clock });
    expect(await runs.get("t1", "run_b")).toMatchObject({
      status: "failed",
      causeCode: "step_failed",
      versionId: "wfver_1",
      definitionHash: `sha256:${"c".repeat(64)}`,
      updatedAt: 5_000,
    });
  });

  it("a log with no request writes nothing", async () => {
    const runs = new MemoryRunIndex();
    await indexStarted({ runId: "run_c", log: new MemoryEventLog("run_c", clock), runs, clock });
    expect(await runs.list({ tenant: "t1", limit: 10 })).toEqual([]);
  });
});
