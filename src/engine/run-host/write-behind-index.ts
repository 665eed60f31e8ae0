import type { RunIndex } from "../../ports/run-index.ts";
import { boundIndex } from "./index-due.ts";

/**
 * @module The run's own index row, written behind the slice. The index is a projection of the log
 * (DESIGN.md: "the index ... follows it"), and D1 is one database in one region: a wake-up that
 * awaited its `running` row before taking the step would add a round trip to the primary to every
 * sleep, signal and child end (150 ms and more from a far location). So a slice's writes of its
 * own row are queued, applied in order, and awaited when the slice ends ({@link WriteBehindIndex.flush}),
 * before its callers are answered: the row is as current as before at every slice boundary, and a
 * failed write still fails the slice (which is retried, like any slice that threw). Rows of other
 * runs (a child's first row) and every read pass straight through.
 */
export type WriteBehindIndex = RunIndex & {
  /** Resolves when every queued write has landed; rejects with the first that failed. */
  flush(): Promise<void>;
};

/** An index whose upserts of `runId`'s row are queued in order until {@link WriteBehindIndex.flush}. */
export function writeBehindIndex(runs: RunIndex, runId: string): WriteBehindIndex {
  let chain: Promise<void> = Promise.resolve();
  return {
    ...boundIndex(runs),
    upsert(entry) {
      if (entry.runId !== runId) return runs.upsert(entry);
      chain = chain.then(() => runs.upsert(entry));
      // Observed here so a write that fails before the flush is no unhandled rejection; the flush reports it.
      chain.catch(() => {});
      return Promise.resolve();
    },
    flush: () => chain,
  };
}
