import type { EventLog } from "../../ports/event-log.ts";
import type { RunEvent } from "../../ports/run-events.ts";
import { applyRunStateEvent } from "./transitions.ts";
import type { RunState } from "./types.ts";

/** Events read at a time when the state catches up with appends made outside the slice. */
const CATCH_UP_PAGE = 1_000;

/**
 * The run's state for one drive slice, read once when the slice starts and kept current by the
 * appends that make it: the slice's own appends (through {@link track}) are folded in as they
 * land, so the drive loop never reads and refolds its log to know where the run stands. Appends
 * made beside the slice (a cancel, a trigger, an approval's decision: the run object takes them
 * while the slice awaits) are found by {@link current}, which reads only the events after the last
 * one it has folded — usually none.
 */
export class SliceState {
  private state: RunState;
  private seq: number;
  private readonly log: EventLog;

  /** `state` is the fold of the log's first `seq` events. */
  constructor(log: EventLog, state: RunState, seq: number) {
    this.log = log;
    this.state = state;
    this.seq = seq;
  }

  /** The log whose appends fold into this state as they land. */
  track(log: EventLog): EventLog {
    return {
      runId: log.runId,
      append: async (events) => {
        const appended = await log.append(events);
        this.foldIn(appended);
        return appended;
      },
      all: () => log.all(),
      page: (options) => log.page(options),
      checkpoint: () => log.checkpoint(),
    };
  }

  /** The run as its log now tells it: every event the log holds, this slice's and any other's. */
  async current(): Promise<RunState> {
    for (;;) {
      const page = await this.log.page({ after: this.seq, limit: CATCH_UP_PAGE });
      this.foldIn(page);
      if (page.length < CATCH_UP_PAGE) return this.state;
    }
  }

  /**
   * Folds the events that follow the last one folded. One folded already (read by `current` while
   * its append synced) is skipped; after a gap (another append landed first) the rest waits for
   * {@link current}, which reads the log in order.
   */
  private foldIn(events: readonly RunEvent[]): void {
    for (const event of events) {
      if (event.seq <= this.seq) continue;
      if (event.seq !== this.seq + 1) return;
      this.state = applyRunStateEvent(this.state, event);
      this.seq = event.seq;
    }
  }
}
