import type { EventLog } from "../../ports/event-log.ts";
import { decodeRunState, type FoldedRun, foldFrom, RUN_STATE_CHECKPOINT_EVERY } from "./checkpoint.ts";

/**
 * A run's state without reading its whole log: the log's newest fold checkpoint, then the events
 * after it, a page of {@link RUN_STATE_CHECKPOINT_EVERY} at a time (about that many of them once
 * the log checkpoints; more for a large state, see `checkpointDue`). A log with no checkpoint it can read (none yet, another fold version, a log opened
 * without the fold) is folded from its first event, still a page at a time. `seq` is the last event's.
 */
export async function readRunState(log: EventLog): Promise<FoldedRun> {
  const checkpoint = await log.checkpoint();
  const decoded = checkpoint ? decodeRunState(checkpoint.state) : null;
  let folded: FoldedRun | null = checkpoint && decoded ? { state: decoded, seq: checkpoint.seq } : null;
  for (;;) {
    const after = folded?.seq ?? 0;
    const page = await log.page({ after, limit: RUN_STATE_CHECKPOINT_EVERY });
    folded = foldFrom(folded, page);
    if (page.length < RUN_STATE_CHECKPOINT_EVERY) return folded;
  }
}
