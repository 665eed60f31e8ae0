import type { LogCheckpoint, LogFold } from "../../ports/event-log.ts";
import type { RunEvent } from "../../ports/run-events.ts";

/** Events with `after < seq <= upTo`, in order, from the log's own table. */
type ReadRange = (after: number, upTo: number) => RunEvent[];

/**
 * The `run_state` table of a Durable Object's event log: the fold of the log up to `seq`, written
 * by the append that crosses each `every`th event, in that append's synchronous turn. Only the
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

  constructor(sql: SqlStorage, fold: LogFold<unknown>, readRange: ReadRange) {
    this.sql = sql;
    this.fold = fold;
    this.readRange = readRange;
    sql.exec("CREATE TABLE IF NOT EXISTS run_state (seq INTEGER PRIMARY KEY, state TEXT NOT NULL)");
  }

  latest(): LogCheckpoint | null {
    return this.sql.exec<{ seq: number; state: string }>("SELECT seq, state FROM run_state ORDER BY seq DESC LIMIT 1").toArray()[0] ?? null;
  }

  /** Called in the turn that inserted events `from + 1 .. to`: checkpoints when they cross a multiple of `every`. */
  afterInsert(from: number, to: number): void {
    const every = this.fold.every;
    if (Math.floor(to / every) === Math.floor(from / every)) return;
    const base = this.base();
    let state = base.state;
    // Folded page by page: a log older than its checkpoints (or a first checkpoint) is never read whole.
    for (let after = base.seq; after < to; after += every)
      state = this.fold.apply(state, this.readRange(after, Math.min(to, after + every)));
    this.sql.exec("INSERT OR REPLACE INTO run_state (seq, state) VALUES (?, ?)", to, this.fold.encode(state));
    this.sql.exec("DELETE FROM run_state WHERE seq < ?", to);
    this.last = { seq: to, state };
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
