import { checkpointDue, type LogCheckpoint, type LogFold } from "../../ports/event-log.ts";
import type { RunEvent } from "../../ports/run-events.ts";

/** Events with `after < seq <= upTo`, in order, from the log's own table. */
type ReadRange = (after: number, upTo: number) => RunEvent[];

/**
 * The `run_state` table of a Durable Object's event log: the fold of the log up to `seq`, written
 * by an append once `every` events (more for a large state: `checkpointDue`) have passed since the
 * newest one, in that append's synchronous turn. Only the
 * newest row is kept: it commits with the events it covers, so it is never ahead of the log, and
 * an older one would only be read if the newest could not be decoded (another fold version after
 * a deploy) — and then the older one, written by that same older version, could not be either.
 *
 * The state of the newest checkpoint is kept decoded in memory (one state, not the log), so the
 * next crossing folds only the events since it.
 */
export class FoldCheckpointer {
  private readonly sql: SqlStorage;
  private readonly fold: LogFold<unknown>;
  private readonly readRange: ReadRange;
  private last: { readonly seq: number; readonly state: unknown } | null = null;
  /** The newest checkpoint's seq and text length, read once (this object is its only writer). */
  private newest: { readonly seq: number; readonly length: number } | null | undefined;

  constructor(sql: SqlStorage, fold: LogFold<unknown>, readRange: ReadRange) {
    this.sql = sql;
    this.fold = fold;
    this.readRange = readRange;
    sql.exec("CREATE TABLE IF NOT EXISTS run_state (seq INTEGER PRIMARY KEY, state TEXT NOT NULL)");
  }

  latest(): LogCheckpoint | null {
    return this.sql.exec<{ seq: number; state: string }>("SELECT seq, state FROM run_state ORDER BY seq DESC LIMIT 1").toArray()[0] ?? null;
  }

  /** Called in the turn that inserted events up to `to`: checkpoints when one is due. */
  afterInsert(to: number): void {
    this.newest ??=
      this.sql
        .exec<{ seq: number; length: number }>("SELECT seq, length(state) AS length FROM run_state ORDER BY seq DESC LIMIT 1")
        .toArray()[0] ?? null;
    if (!checkpointDue(this.fold.every, to, this.newest)) return;
    const every = this.fold.every;
    const base = this.base();
    let state = base.state;
    // Folded page by page: a log older than its checkpoints (or a first checkpoint) is never read whole.
    for (let after = base.seq; after < to; after += every)
      state = this.fold.apply(state, this.readRange(after, Math.min(to, after + every)));
    const text = this.fold.encode(state);
    this.sql.exec("INSERT OR REPLACE INTO run_state (seq, state) VALUES (?, ?)", to, text);
    this.sql.exec("DELETE FROM run_state WHERE seq < ?", to);
    this.last = { seq: to, state };
    this.newest = { seq: to, length: text.length };
  }

  /** The newest checkpoint this fold can read, else the empty log's state. */
  private base(): { seq: number; state: unknown } {
    // Only the seq is read to check the copy in memory: the state text may be large.
    const newest = this.sql.exec<{ seq: number | null }>("SELECT max(seq) AS seq FROM run_state").one().seq;
    if (this.last && newest === this.last.seq) return this.last;
    const stored = this.latest();
    const state = stored ? this.fold.decode(stored.state) : null;
    return stored && state !== null ? { seq: stored.seq, state } : { seq: 0, state: this.fold.initial };
  }
}
