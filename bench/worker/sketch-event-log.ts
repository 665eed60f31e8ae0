/**
 * Bench-only sketches of the fixes the scenarios point at, on the run object's own event table
 * and encoding (canonical JSON in, parsed back out), measured next to the real adapter so the
 * gain is evidence, not a guess; the engine's adapter is not changed from here.
 *
 * - `group`: group commit — appends made in the same turn share one `storage.sync()` instead of
 *   awaiting one each (what concurrent fan-out branches need).
 * - `none`: no sync at all — not durable; it measures what is left of a step when the syncs are
 *   gone (the engine's own work), i.e. the floor under "sync only before side effects".
 */
import { canonicalJson } from "../../src/json/canonical-json.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";

type EventRow = { seq: number; type: string; at: number; payload: string };

export class SketchEventLog implements EventLog {
  readonly runId: string;
  private readonly storage: DurableObjectStorage;
  private readonly mode: "group" | "none";
  private pending: Promise<void> | null = null;

  constructor(storage: DurableObjectStorage, runId: string, mode: "group" | "none") {
    this.storage = storage;
    this.runId = runId;
    this.mode = mode;
    storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)",
    );
  }

  async append(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    const at = Date.now();
    const last = this.storage.sql.exec<{ seq: number }>("SELECT seq FROM events ORDER BY seq DESC LIMIT 1").toArray()[0]?.seq ?? 0;
    const appended = events.map((e, i) => {
      const payload = canonicalJson(e.payload);
      this.storage.sql.exec("INSERT INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)", last + i + 1, e.type, at, payload);
      return { seq: last + i + 1, runId: this.runId, type: e.type, at, payload: JSON.parse(payload) } as RunEvent;
    });
    if (this.mode === "group") await this.flush();
    return appended;
  }

  async all(): Promise<RunEvent[]> {
    return this.read("SELECT seq, type, at, payload FROM events ORDER BY seq");
  }

  async page(options: { after: number; limit: number }): Promise<RunEvent[]> {
    return this.read("SELECT seq, type, at, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?", options.after, options.limit);
  }

  /** No fold checkpoints: a reader folds the sketch's log from its first event. */
  async checkpoint(): Promise<null> {
    return null;
  }

  private flush(): Promise<void> {
    // Every insert made before the microtask runs is covered by the one sync it starts.
    this.pending ??= Promise.resolve().then(() => {
      this.pending = null;
      return this.storage.sync();
    });
    return this.pending;
  }

  private read(query: string, ...bindings: unknown[]): RunEvent[] {
    return this.storage.sql
      .exec<EventRow>(query, ...bindings)
      .toArray()
      .map((r) => ({ seq: r.seq, runId: this.runId, type: r.type, at: r.at, payload: JSON.parse(r.payload) }) as RunEvent);
  }
}
