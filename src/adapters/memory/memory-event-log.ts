import { canonicalJson } from "../../json/canonical-json.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EventLog } from "../../ports/event-log.ts";
import { assertTerminalLast, isTerminalType, matchesTypePattern, type NewRunEvent, type RunEvent } from "../../ports/run-events.ts";
import { RunTerminatedError } from "../../sdk/errors/run-terminated-error.ts";

/**
 * In-memory {@link EventLog}. Payloads go through canonical JSON on the way in, exactly as in the
 * Durable Object adapter, so what a test reads back is what production would have stored.
 */
export class MemoryEventLog implements EventLog {
  private readonly rows: RunEvent[] = [];
  readonly runId: string;
  private readonly clock: Clock;

  constructor(runId: string, clock: Clock) {
    this.runId = runId;
    this.clock = clock;
  }

  async append(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    const last = this.rows[this.rows.length - 1];
    if (last && isTerminalType(last.type)) throw new RunTerminatedError(this.runId, last.type);
    assertTerminalLast(this.runId, events);
    const at = this.clock.now();
    const appended = events.map(
      (e, i) =>
        ({ seq: this.rows.length + i + 1, runId: this.runId, type: e.type, at, payload: JSON.parse(canonicalJson(e.payload)) }) as RunEvent,
    );
    this.rows.push(...appended);
    return appended;
  }

  async all(): Promise<RunEvent[]> {
    return [...this.rows];
  }

  async page(options: { after: number; limit: number; types?: readonly string[] }): Promise<RunEvent[]> {
    const types = options.types && options.types.length > 0 ? options.types : null;
    return this.rows.filter((e) => e.seq > options.after && (!types || matchesTypePattern(e.type, types))).slice(0, options.limit);
  }

  /** Test helper: drops events after `seq`, simulating a crash that lost them. */
  truncateAfter(seq: number): void {
    this.rows.splice(seq);
  }
}
