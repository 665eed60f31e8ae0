import type { RunCursor, RunIndexEntry } from "../ports/run-index.ts";
import { isEndedStatus, RUN_STATUSES } from "../ports/run-status.ts";
import type { ApiServices } from "./api-env.ts";

/** Statuses of a section that has started and not ended: it waits for a trigger, or runs an occurrence (`minted` is an anchor, not yet a run). */
const UNFINISHED = RUN_STATUSES.filter((s) => s !== "minted" && !isEndedStatus(s));
/** Index pages a request reads at most while skipping rows `keep` refuses; the cursor then marks where it stopped. */
const MAX_SCANS = 20;

const newestFirst = (a: RunIndexEntry, b: RunIndexEntry) =>
  b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0);
const positionOf = (r: RunIndexEntry): RunCursor => ({ createdAt: r.createdAt, runId: r.runId });

/**
 * One page of a workflow's unfinished runs, newest first across every unfinished status (the run
 * index is queried per status and merged), keeping only rows `keep` accepts. `next` is where the
 * next page starts (null at the end). A page holds `limit` rows unless the end came first, or
 * {@link MAX_SCANS} index pages were skipped by `keep` (then fewer, with a `next` to go on from).
 *
 * @example
 * const { rows, next } = await unfinishedPage(services, { tenant, workflowId, limit: 50, keep: () => true });
 */
export async function unfinishedPage(
  services: ApiServices,
  q: { tenant: string; workflowId: string; before?: RunCursor; limit: number; keep: (r: RunIndexEntry) => boolean },
): Promise<{ rows: RunIndexEntry[]; next: RunCursor | null }> {
  const rows: RunIndexEntry[] = [];
  let position = q.before;
  for (let scan = 0; scan < MAX_SCANS; scan++) {
    const at = position;
    const batches = await Promise.all(
      UNFINISHED.map((status) =>
        services.runs.list({ tenant: q.tenant, workflowId: q.workflowId, status, limit: q.limit + 1, ...(at ? { before: at } : {}) }),
      ),
    );
    // The newest limit+1 across statuses: each status's own newest limit+1 holds all of them.
    const merged = batches
      .flat()
      .sort(newestFirst)
      .slice(0, q.limit + 1);
    for (const r of merged) {
      if (rows.length === q.limit) return { rows, next: position ?? null };
      if (q.keep(r)) rows.push(r);
      position = positionOf(r);
    }
    if (merged.length <= q.limit) return { rows, next: null };
  }
  return { rows, next: position ?? null };
}
