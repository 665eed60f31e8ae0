import { canonicalJson } from "../../json/canonical-json.ts";
import type { Clock } from "../../ports/clock.ts";
import { type AppendOptions, checkpointDue, type EventLog, type LogCheckpoint, type LogFold } from "../../ports/event-log.ts";
import { decodeStoredEvent, type StoredEventRow } from "../../ports/events/decode-stored-event.ts";
import { assertTerminalLast, isTerminalType, matchesTypePattern, type NewRunEvent, type RunEvent } from "../../ports/run-events.ts";
import { RunTerminatedError } from "../../sdk/errors/run-terminated-error.ts";

/** A stored row: its text, as the Durable Object adapter stores it, and the event once read (or appended). */
type MemoryRow = { readonly stored: StoredEventRow; event: RunEvent | null };

/**
 * In-memory {@link EventLog}. Payloads go through canonical JSON on the way in and are kept as
 * that text, exactly as in the Durable Object adapter, so what a test reads back is what
 * production would have stored; a row is checked against the event schema the first time it is
 * read (`event_log_corrupt` for a bad one, see {@link writeStoredRow}), an appended event is
 * trusted as appended (its type holds). Given a {@link LogFold}, it checkpoints it every `every`
 * events as that adapter does (the newest only).
 */
export class MemoryEventLog implements EventLog {
  private readonly rows: MemoryRow[] = [];
  readonly runId: string;
  private readonly clock: Clock;
  private readonly fold: LogFold<unknown> | null;
  private latest: { readonly seq: number; readonly state: unknown; readonly text: string } | null = null;

  constructor(runId: string, clock: Clock, fold?: LogFold<unknown>) {
    this.runId = runId;
    this.clock = clock;
    this.fold = fold ?? null;
  }

  async append(events: readonly NewRunEvent[], options: AppendOptions = {}): Promise<RunEvent[]> {
    const last = this.rows[this.rows.length - 1]?.stored;
    if (last && isTerminalType(last.type)) throw new RunTerminatedError(this.runId, last.type);
    assertTerminalLast(this.runId, events);
    const at = Math.max(options.at ?? this.clock.now(), last?.at ?? 0);
    const texts = events.map((e) => canonicalJson(e.payload));
    const appended = events.map(
      (e, i) =>
        ({ seq: this.rows.length + i + 1, runId: this.runId, type: e.type, at, payload: JSON.parse(texts[i] as string) }) as RunEvent,
    );
    this.rows.push(
      ...appended.map((event, i) => ({ stored: { seq: event.seq, type: event.type, at, payload: texts[i] as string }, event })),
    );
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
    const state = fold.apply(base.state, this.events(base.seq, to));
    this.latest = { seq: to, state, text: fold.encode(state) };
  }

  async all(): Promise<RunEvent[]> {
    return this.events(0, this.rows.length);
  }

  async page(options: { after: number; limit: number; types?: readonly string[] }): Promise<RunEvent[]> {
    const types = options.types && options.types.length > 0 ? options.types : null;
    const from = Math.max(0, options.after);
    // `seq` is dense from 1: an untyped page is a slice, not a scan of the whole log.
    if (!types) return this.events(from, from + Math.max(0, options.limit));
    const seqs = this.rows.filter((r) => r.stored.seq > options.after && matchesTypePattern(r.stored.type, types)).slice(0, options.limit);
    return seqs.map((r) => this.event(r));
  }

  /**
   * Test helper: stores a row as it is, bypassing `append` and its types (what a disk fault or a
   * bad migration would leave); `seq` replaces the row there, or follows the last one.
   */
  writeStoredRow(row: StoredEventRow): void {
    const index = row.seq - 1;
    if (index < 0 || index > this.rows.length) throw new RangeError(`seq ${row.seq} leaves a gap after ${this.rows.length}`);
    this.rows[index] = { stored: row, event: null };
  }

  /** The events of rows `[from, to)`, each read (and checked) once. */
  private events(from: number, to: number): RunEvent[] {
    return this.rows.slice(from, to).map((r) => this.event(r));
  }

  private event(row: MemoryRow): RunEvent {
    if (!row.event) row.event = decodeStoredEvent(this.runId, row.stored);
    return row.event;
  }

  /** Test helper: drops events after `seq`, simulating a crash that lost them. */
  truncateAfter(seq: number): void {
    this.rows.splice(seq);
    // A checkpoint past the cut would cover events the log no longer holds.
    if (this.latest && this.latest.seq > seq) this.latest = null;
  }
}
