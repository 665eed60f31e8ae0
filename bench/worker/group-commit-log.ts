/**
 * A bench-only sketch of the fix the event-log scenario points at: the run object's append path
 * (same table, same canonical JSON, same read-back) with group commit — appends made in the same
 * turn share one `storage.sync()` instead of awaiting one each. Measured next to the real adapter
 * so the gain is evidence, not a guess; the engine's adapter is not changed from here.
 */
import { canonicalJson } from "../../src/identity/canonical-json.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";

export class GroupCommitLog {
  private readonly storage: DurableObjectStorage;
  private readonly runId: string;
  private pending: Promise<void> | null = null;

  constructor(storage: DurableObjectStorage, runId: string) {
    this.storage = storage;
    this.runId = runId;
    storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)",
    );
  }

  /** Durable when it resolves, like the adapter's append: the shared sync was started after these inserts. */
  async append(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    const at = Date.now();
    const last = this.storage.sql.exec<{ seq: number }>("SELECT seq FROM events ORDER BY seq DESC LIMIT 1").toArray()[0]?.seq ?? 0;
    const appended = events.map((e, i) => {
      const payload = canonicalJson(e.payload);
      this.storage.sql.exec("INSERT INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)", last + i + 1, e.type, at, payload);
      return { seq: last + i + 1, runId: this.runId, type: e.type, at, payload: JSON.parse(payload) } as RunEvent;
    });
    await this.flush();
    return appended;
  }

  private flush(): Promise<void> {
    // Every insert made before the microtask runs is covered by the one sync it starts.
    this.pending ??= Promise.resolve().then(() => {
      this.pending = null;
      return this.storage.sync();
    });
    return this.pending;
  }
}
