import { checkpointDue, type LogCheckpoint, type LogFold } from "../../ports/event-log.ts";
import type { RunEvent } from "../../ports/run-events.ts";

/** Events with `after < seq <= upTo`, in order, from the log's own table. */
type ReadRange = (after: number, upTo: number) => RunEvent[];

/**
 * The `run_state` table of a Durable Object's event log: the fold of the log up to `seq`, written
 * by an append once `every` events (more for a large state: `checkpointDue`) have passed since the
 * newest one, in that append's synchronous turn. Only the newest row is kept: it commits with the
 * events it covers, so it is never ahead of the log, and an older one would only be read if the
 * newest could not be decoded (another fold version after a deploy) — and then the older one,
 * written by that same older version, could not be either.
 *
 * Once a checkpoint has been written, the fold is kept current in memory (one state, not the log):
 * each append folds its own events in (the copies it returns, which callers must not change, as
 * with the log's cache), so the next checkpoint only encodes. Before that (a fresh
 * object, a short run) nothing is folded until a checkpoint is due, which then reads the events
 * since the newest one from the table, a page at a time.
 */
export class FoldCheckpointer {
  private readonly sql: SqlStorage;
  private readonly fold: LogFold<unknown>;
  private readonly readRange: ReadRange;
  /** The fold up to `seq`, kept current by every append once a checkpoint was written; null before. */
  private running: { readonly seq: number; readonly state: unknown } | null = null;
  /** The newest checkpoint's seq and text length, read once (this object is its only writer). */
  private newest: { readonly seq: number; readonly length: number } | null | undefined;

  constructor(sql: SqlStorage, fold: LogFold<unknown>, readRange: ReadRange) {
    this.sql = sql;
    this.fold = fold;
    this.readRange = readRange;
    sql.exec("CREATE TABLE IF NOT EXISTS run_state (seq INTEGER PRIMARY KEY, state TEXT NOT NULL)");
  }

  /** Drops the fold kept in memory (after a failed checkpoint): the next one due is rebuilt from the table. */
  forget(): void {
    this.running = null;
  }

  latest(): LogCheckpoint | null {
    return this.sql.exec<{ seq: number; state: string }>("SELECT seq, state FROM run_state ORDER BY seq DESC LIMIT 1").toArray()[0] ?? null;
  }

  /** Called in the turn that inserted `events` (the log's last ones): folds them in, and checkpoints when one is due. */
  afterInsert(events: readonly RunEvent[]): void {
    const first = events[0]?.seq;
    const to = events.at(-1)?.seq;
    if (first === undefined || to === undefined) return;
    // Another writer of this table (a second log object on the same storage) breaks the chain: rebuilt when due.
    this.running = this.running?.seq === first - 1 ? { seq: to, state: this.fold.apply(this.running.state, events) } : null;
    this.newest ??=
      this.sql
        .exec<{ seq: number; length: number }>("SELECT seq, length(state) AS length FROM run_state ORDER BY seq DESC LIMIT 1")
        .toArray()[0] ?? null;
    if (!checkpointDue(this.fold.every, to, this.newest)) return;
    const state = this.running?.state ?? this.rebuild(to);
    const text = this.fold.encode(state);
    this.sql.exec("INSERT OR REPLACE INTO run_state (seq, state) VALUES (?, ?)", to, text);
    this.sql.exec("DELETE FROM run_state WHERE seq < ?", to);
    this.running = { seq: to, state };
    this.newest = { seq: to, length: text.length };
  }

  /** The fold up to `to`: the newest checkpoint this fold can read (else none), then the events after it, a page at a time. */
  private rebuild(to: number): unknown {
    const stored = this.latest();
    const decoded = stored ? this.fold.decode(stored.state) : null;
    let state = stored && decoded !== null ? decoded : this.fold.initial;
    const every = this.fold.every;
    for (let after = stored && decoded !== null ? stored.seq : 0; after < to; after += every)
      state = this.fold.apply(state, this.readRange(after, Math.min(to, after + every)));
    return state;
  }
}
