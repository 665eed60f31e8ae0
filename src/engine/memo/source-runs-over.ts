import type { BlobOwner, BlobStore } from "../../ports/blob-store.ts";
import type { RunEvent } from "../../ports/run-events.ts";
import type { RunHandles } from "../../ports/run-handle.ts";
import type { SourceRuns } from "../../ports/source-runs.ts";

/** Events read per call to the source's run object (its log serves up to 10,000 at once). */
const PAGE = 5_000;

/**
 * {@link SourceRuns} over the run objects: the source's log page by page through its `RunHandle`,
 * its blobs from its own store. The wiring builds it once (src/wiring.ts).
 */
export function sourceRunsOver(runHandles: RunHandles, blobsFor: (owner: BlobOwner) => BlobStore): SourceRuns {
  return {
    async events(tenant, runId, placement) {
      const handle = runHandles.open(tenant, runId, placement);
      const all: RunEvent[] = [];
      for (;;) {
        const page = await handle.events({ after: all.at(-1)?.seq ?? 0, limit: PAGE });
        all.push(...page);
        if (page.length < PAGE) return all;
      }
    },
    blobs: (tenant, runId) => blobsFor({ tenant, runId }),
  };
}
