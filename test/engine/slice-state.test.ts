import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { deriveRunState, SliceState } from "../../src/engine/run-state.ts";
import type { EventLog } from "../../src/ports/event-log.ts";

const clock = { now: () => 1_767_225_600_000 };
const REQUEST = { type: "RunRequested", payload: { workflowId: "w", input: {}, trigger: { kind: "http" }, tenant: "t" } } as const;

/** A log that counts its whole-log reads: the slice state must never need one. */
function counted(log: EventLog): { log: EventLog; reads: () => number } {
  let reads = 0;
  return {
    log: {
      runId: log.runId,
      append: (events) => log.append(events),
      all: () => {
        reads += 1;
        return log.all();
      },
      page: (options) => log.page(options),
      checkpoint: () => log.checkpoint(),
    },
    reads: () => reads,
  };
}

describe("SliceState: the run state lives for the slice", () => {
  it("folds the slice's own appends as they land, and finds appends made beside it, without reading the whole log", async () => {
    const base = new MemoryEventLog("run_slice", clock);
    await base.append([REQUEST]);
    const { log, reads } = counted(base);
    const slice = new SliceState(log, deriveRunState(await base.all()), 1);
    const tracked = slice.track(log);
    await tracked.append([{ type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: 1, trigger: { kind: "http", id: "a" } } }]);
    // A cancel the run object took while the slice awaited: not through the slice's log.
    await base.append([{ type: "RunCancelled", payload: { reason: "by request" } }]);
    const current = await slice.current();
    expect(current).toEqual(deriveRunState(await base.all()));
    expect(current.status).toBe("cancelled");
    expect(reads()).toBe(0);
  });

  it("an own append that lands after another one is folded in order, once", async () => {
    const base = new MemoryEventLog("run_slice_order", clock);
    await base.append([REQUEST]);
    const slice = new SliceState(base, deriveRunState(await base.all()), 1);
    const tracked = slice.track(base);
    await base.append([{ type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: 1, trigger: { kind: "http", id: "a" } } }]);
    await tracked.append([{ type: "OccurrenceQueued", payload: { occurrenceId: "o3", input: 2, trigger: { kind: "http", id: "b" } } }]);
    expect(await slice.current()).toEqual(deriveRunState(await base.all()));
    expect((await slice.current()).occurrences.map((o) => o.occurrenceId)).toEqual(
      deriveRunState(await base.all()).occurrences.map((o) => o.occurrenceId),
    );
  });
});
