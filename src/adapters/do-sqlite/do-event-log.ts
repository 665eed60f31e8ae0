import { canonicalJson } from "../../json/canonical-json.ts";
import type { Clock } from "../../ports/clock.ts";
import type { AppendOptions, EventLog, LogCheckpoint, LogFold } from "../../ports/event-log.ts";
import { decodeStoredEvent, type StoredEventRow } from "../../ports/events/decode-stored-event.ts";
import { assertTerminalLast, isTerminalType, type NewRunEvent, type RunEvent } from "../../ports/run-events.ts";
import { RunTerminatedError } from "../../sdk/errors/run-terminated-error.ts";
import { FoldCheckpointer } from "./fold-checkpointer.ts";

/** Observers of appends; crash tests use them to abort the object at an event boundary. */
export type AppendHooks = {
  readonly beforeAppend?: (events: readonly NewRunEvent[]) => void;
  readonly afterAppend?: (events: readonly RunEvent[]) => void;
};

/**
 * The run object's {@link EventLog} in its SQLite storage. A batch is inserted in one synchronous
 * turn and then a `storage.sync()` that started after the insert is awaited, so when `append`
 * resolves the events survive a crash (TOOLCHAIN.md: writes in the turn of an abort are lost
 * unless synced).
 *
 * Group commit: appends made in the same turn, or while a sync is in flight, share the next sync
 * instead of awaiting one each (a sync costs milliseconds; the insert microseconds). An append
 * never waits on a sync that began before its rows were written: such a sync may not cover them.
 *
 * Fold checkpoints: given a {@link LogFold}, an append after which one is due (every `every`
 * events, more for a large state) also writes the fold of the log up to its last event into
 * `run_state`, in the same synchronous turn (so the same sync covers it, and a checkpoint never
 * outlives the events it covers).
 */
export class DurableObjectEventLog implements EventLog {
  readonly runId: string;
  private readonly storage: DurableObjectStorage;
  private readonly clock: Clock;
  private cache: RunEvent[] | null = null;
  private readonly hooks: AppendHooks;
  /** The sync running now, if any. */
  private syncing: Promise<void> | null = null;
  /** The sync that starts once `syncing` ends; rows written before it starts are covered by it. */
  private nextSync: Promise<void> | null = null;
  private readonly checkpoints: FoldCheckpointer | null;
  /**
   * Rows 1..checked were checked against the event schema by this object (or appended by it, typed):
   * read again, they are parsed, not checked again. The check costs about half a JSON.parse
   * (zod runs without its compiled parsers in workerd; bench/event-decode.ts) and a slice re-reads
   * the whole log: once per row per object keeps it off the hot path.
   */
  private checked = 0;

  /**
   * `hooks` run before a batch is written and once it is durable (crash tests abort there);
   * `fold`, when given, is checkpointed every `fold.every` events.
   */
  constructor(storage: DurableObjectStorage, runId: string, clock: Clock, hooks: AppendHooks = {}, fold?: LogFold<unknown>) {
    this.storage = storage;
    this.runId = runId;
    this.clock = clock;
    this.hooks = hooks;
    storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)",
    );
    this.checkpoints = fold
      ? new FoldCheckpointer(storage.sql, fold, (after, upTo) =>
          this.read("SELECT seq, type, at, payload FROM events WHERE seq > ? AND seq <= ? ORDER BY seq", after, upTo),
        )
      : null;
  }

  async append(events: readonly NewRunEvent[], options: AppendOptions = {}): Promise<RunEvent[]> {
    if (events.length === 0) return [];
    this.hooks.beforeAppend?.(events);
    const payloads = events.map((e) => canonicalJson(e.payload));
    const tail = this.storage.sql
      .exec<{ seq: number; type: string; at: number }>("SELECT seq, type, at FROM events ORDER BY seq DESC LIMIT 1")
      .toArray()[0];
    if (tail && isTerminalType(tail.type)) throw new RunTerminatedError(this.runId, tail.type);
    const at = Math.max(options.at ?? this.clock.now(), tail?.at ?? 0);
    assertTerminalLast(this.runId, events);
    const last = tail?.seq ?? 0;
    const appended: RunEvent[] = [];
    events.forEach((e, i) => {
      const seq = last + i + 1;
      this.storage.sql.exec("INSERT INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)", seq, e.type, at, payloads[i] as string);
      // Not checked against the schema: the event is typed, and the check costs CPU on the hot path.
      appended.push({ seq, runId: this.runId, type: e.type, at, payload: JSON.parse(payloads[i] as string) } as RunEvent);
    });
    if (this.cache) this.cache.push(...appended);
    if (last <= this.checked) this.checked = last + events.length;
    // Still in the insert's turn: the sync below covers the checkpoint as well. A checkpoint is
    // only a shortcut: one that cannot be made must not fail an append whose rows are written.
    try {
      this.checkpoints?.afterInsert(appended);
    } catch (error) {
      this.checkpoints?.forget();
      console.error(
        `run ${this.runId}: no fold checkpoint after seq ${last + events.length}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await this.durable();
    this.hooks.afterAppend?.(appended);
    return appended;
  }

  /**
   * Resolves once a sync that started after this call has completed, so it covers every row
   * written so far. Callers in the same turn, or while a sync runs, get the same promise: at most
   * one sync waits behind the running one, and it starts only after a microtask so that appends
   * issued together in this turn join it.
   */
  private durable(): Promise<void> {
    if (this.nextSync) return this.nextSync;
    // A failed sync fails its own waiters; the next one still runs for later rows.
    const after = this.syncing ? this.syncing.catch(() => undefined) : Promise.resolve();
    const next = after.then(() => {
      this.nextSync = null;
      const sync = this.storage.sync().finally(() => {
        if (this.syncing === sync) this.syncing = null;
      });
      this.syncing = sync;
      return sync;
    });
    this.nextSync = next;
    return next;
  }

  /**
   * Drops the copy of the whole log that {@link all} keeps (the drive reads it several times a
   * slice); the next `all()` reads the table again. The run object calls it when a slice ends, so
   * an idle or waiting run holds none of its log in memory.
   */
  release(): void {
    this.cache = null;
  }

  async all(): Promise<RunEvent[]> {
    if (!this.cache) this.cache = this.read("SELECT seq, type, at, payload FROM events ORDER BY seq");
    return [...this.cache];
  }

  async page(options: { after: number; limit: number; types?: readonly string[] }): Promise<RunEvent[]> {
    const limit = Math.max(1, Math.min(options.limit, 10_000));
    if (options.types && options.types.length > 0) {
      // Exact types, or prefixes written with a trailing "*" (e.g. "harness.*"). Each list is
      // bound as ONE JSON array and unpacked with json_each: one parameter per type overflowed
      // SQLite's bound-parameter limit (a 500 for `?type=T0,…,T119`). Case-sensitive prefix
      // match with substr (LIKE would ignore case).
      const exact = options.types.filter((t) => !t.endsWith("*"));
      const prefixes = options.types.filter((t) => t.endsWith("*")).map((t) => t.slice(0, -1));
      return this.read(
        // `events.type` is qualified: json_each has a column named `type` of its own.
        `SELECT seq, type, at, payload FROM events WHERE seq > ?
           AND (events.type IN (SELECT e.value FROM json_each(?) AS e)
             OR EXISTS (SELECT 1 FROM json_each(?) AS p WHERE substr(events.type, 1, length(p.value)) = p.value))
           ORDER BY seq LIMIT ?`,
        options.after,
        JSON.stringify(exact),
        JSON.stringify(prefixes),
        limit,
      );
    }
    // During a slice the whole log is in memory (see `all`): a page of it is a slice of that copy,
    // not a statement and a JSON.parse per row (the drive asks for the events after the last it folded).
    const cached = this.cache;
    if (cached && (cached.length <= options.after || cached[options.after]?.seq === options.after + 1))
      return cached.slice(options.after, options.after + limit);
    return this.read("SELECT seq, type, at, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?", options.after, limit);
  }

  async checkpoint(): Promise<LogCheckpoint | null> {
    return this.checkpoints?.latest() ?? null;
  }

  /** Number of events, without reading them. */
  count(): number {
    return this.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM events").one().n;
  }

  /** Rows as events, each checked against the event schema once: a bad row is `event_log_corrupt` with its seq. */
  private read(query: string, ...bindings: unknown[]): RunEvent[] {
    return this.storage.sql
      .exec<StoredEventRow>(query, ...bindings)
      .toArray()
      .map((r) => {
        if (r.seq <= this.checked) {
          const known = parsedAsChecked(this.runId, r);
          if (known) return known;
        }
        const event = decodeStoredEvent(this.runId, r);
        if (r.seq === this.checked + 1) this.checked = r.seq;
        return event;
      });
  }
}

/** A row this object checked before, parsed again; null when it no longer parses (then it is checked anew). */
function parsedAsChecked(runId: string, row: StoredEventRow): RunEvent | null {
  try {
    // Checked against its type's schema when this object first read it (see `checked`).
    return { seq: row.seq, runId, type: row.type, at: row.at, payload: JSON.parse(row.payload) } as RunEvent;
  } catch {
    return null;
  }
}
