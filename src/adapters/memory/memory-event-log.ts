import { canonicalJson } from "../../json/canonical-json.ts";
import type { Clock } from "../../ports/clock.ts";
import { checkpointDue, type EventLog, type LogCheckpoint, type LogFold } from "../../ports/event-log.ts";
import { assertTerminalLast, isTerminalType, matchesTypePattern, type NewRunEvent, type RunEvent } from "../../ports/run-events.ts";
import { RunTerminatedError } from "../../sdk/errors/run-terminated-error.ts";

/**
 * In-memory {@link EventLog}. Payloads go through canonical JSON on the way in, exactly as in the
 * Durable Object adapter, so what a test reads back is what production would have stored. Given a
 * {@link LogFold}, it checkpoints it every `every` events as that adapter does (the newest only).
 */
export class MemoryEventLog implements EventLog {
  private readonly rows: RunEvent[] = [];
  readonly runId: string;
  private readonly clock: Clock;
  private readonly fold: LogFold<unknown> | null;
  private latest: { readonly seq: number; readonly state: unknown; readonly text: string } | null = null;

  constructor(runId: string, clock: Clock, fold?: LogFold<unknown>) {
    this.runId = runId;
    this.clock = clock;
    this.fold = fold ?? null;
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
    this.checkpointAfter();
    return appended;
  }

  async checkpoint(): Promise<LogCheckpoint | null> {
    return this.latest ? { seq: this.latest.seq, state: this.latest.text } : null;
  }

  private checkpointAfter(): void {
    const fold = this.fold;
    const to = this.rows.length;
    const last = this.latest && { seq: this.latest.seq, length: this.latest.text.length };
    if (!fold || !checkpointDue(fold.every, to, last)) return;
    const base = this.latest ?? { seq: 0, state: fold.initial };
    const state = fold.apply(base.state, this.rows.slice(base.seq, to));
    this.latest = { seq: to, state, text: fold.encode(state) };
  }

  async all(): Promise<RunEvent[]> {
    return [...this.rows];
  }

  async page(options: { after: number; limit: number; types?: readonly string[] }): Promise<RunEvent[]> {
    const types = options.types && options.types.length > 0 ? options.types : null;
    // `seq` is dense from 1: an untyped page is a slice, not a scan of the whole log.
    if (!types) return this.rows.slice(Math.max(0, options.after), Math.max(0, options.after) + Math.max(0, options.limit));
    return this.rows.filter((e) => e.seq > options.after && (!types || matchesTypePattern(e.type, types))).slice(0, options.limit);
  }

  /** Test helper: drops events after `seq`, simulating a crash that lost them. */
  truncateAfter(seq: number): void {
    this.rows.splice(seq);
    // A checkpoint past the cut would cover events the log no longer holds.
    if (this.latest && this.latest.seq > seq) this.latest = null;
  }
}
