/**
 * @module How a restart or a fork reads its source run (docs/runs.md, "Restart and forks"): the
 * source's own event log and its blobs, never a copy. The memo a new run reuses results from is
 * derived from this log each time it is needed, so it cannot disagree with it. The Worker wires it
 * over the run objects (`src/wiring.ts`); a host without it runs every step.
 */
import type { BlobStore } from "./blob-store.ts";
import type { RunEvent, RunPlacement } from "./run-events.ts";

export interface SourceRuns {
  /** Every event of the tenant's run, in order (an ended run's log no longer changes). */
  events(tenant: string, runId: string, placement?: RunPlacement): Promise<RunEvent[]>;
  /** The run's blob store: a large step output recorded by reference is read from it. */
  blobs(tenant: string, runId: string): BlobStore;
}
