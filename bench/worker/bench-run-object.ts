/**
 * A run object with bench-only doors, bound as `BENCH_RUNS` in the bench Worker only:
 * `replayFrom` loads a finished run's log without its terminal event (what a crash just before
 * `RunCompleted` leaves behind) and runs the real alarm, which replays the log and finishes the
 * run; `appendThroughput` and `insertFloor` time appends inside the object (the adapter, the
 * sketches, raw SQLite); `driveWith` runs the engine alone on the real or a no-sync log.
 *
 * It writes the `meta` and `events` tables of RunObject and DurableObjectEventLog directly (their
 * layout is copied here): a change of either layout must be mirrored, and the replay check
 * (same output, 0 model calls) would show it.
 */
import { RunObject } from "../../durable-objects/run.ts";
import { DurableObjectEventLog } from "../../src/adapters/do-sqlite/do-event-log.ts";
import { driveRun } from "../../src/engine/drive-run.ts";
import { canonicalJson } from "../../src/json/canonical-json.ts";
import { systemClock } from "../../src/ports/clock.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import { isTerminalType, type NewRunEvent, type RunEvent } from "../../src/ports/run-events.ts";
import { wire } from "../../src/wiring.ts";
import { modelCalls } from "./counting-models.ts";
import { SketchEventLog } from "./sketch-event-log.ts";

export type ReplayResult = {
  /** Time of the alarm that replayed the log and appended the terminal event, inside the object. */
  replayMs: number;
  modelCalls: number;
  status: string;
  output: unknown;
  eventsLoaded: number;
  eventsAfter: number;
};

/** `appends`: calls of the log's `append` during the drive, each one awaited sync with the real adapter. */
export type DriveResult = { ms: number; status: string; events: number; appends: number };

export type AppendResult = { events: number; batch: number; writers: number; ms: number };

export class BenchRunObject extends RunObject {
  /** Loads `events` (a run's log, the terminal event left out) and replays it in the alarm. */
  async replayFrom(runId: string, tenant: string, events: readonly RunEvent[]): Promise<ReplayResult> {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)");
    if (sql.exec<{ n: number }>("SELECT count(*) AS n FROM events").one().n > 0) throw new Error(`bench object for ${runId} is not fresh`);
    sql.exec("INSERT INTO meta (key, value) VALUES ('runId', ?), ('tenant', ?)", runId, tenant);
    const kept = events.filter((e) => !isTerminalType(e.type));
    for (const e of kept)
      sql.exec("INSERT INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)", e.seq, e.type, e.at, canonicalJson(e.payload));
    await this.ctx.storage.sync();
    const callsBefore = modelCalls.total;
    const started = performance.now();
    await this.alarm();
    const replayMs = performance.now() - started;
    const calls = modelCalls.total - callsBefore;
    const view = await this.status();
    return {
      replayMs,
      modelCalls: calls,
      status: view.status,
      output: view.output,
      eventsLoaded: kept.length,
      eventsAfter: view.eventCount,
    };
  }

  /**
   * Appends `count` step events in batches of `batch` through the run's event log adapter, from
   * `writers` concurrent appenders (as the branches of a fan-out append); with `groupCommit`,
   * through the bench sketch that shares one sync among the appends of a turn.
   */
  async appendThroughput(count: number, batch: number, writers = 1, groupCommit = false): Promise<AppendResult> {
    const log = groupCommit
      ? new SketchEventLog(this.ctx.storage, "run_bench_append", "group")
      : new DurableObjectEventLog(this.ctx.storage, "run_bench_append", systemClock);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < count) {
          const from = next;
          next = Math.min(count, next + batch);
          const events: NewRunEvent[] = [];
          for (let i = from; i < next; i++) events.push({ type: "StepStarted", payload: { stepPath: `c1/s${i}`, attempt: 1 } });
          await log.append(events);
        }
      }),
    );
    return { events: count, batch, writers, ms: performance.now() - started };
  }

  /**
   * Drives a run of `lwir` with the engine alone (`driveRun`, the same ports as the run object's
   * alarm) in one slice, its log either the real adapter (`synced`) or the no-sync sketch: the
   * difference per step is what the syncs cost.
   */
  async driveWith(runId: string, workflowId: string, lwir: unknown, input: unknown, log: "synced" | "unsynced"): Promise<DriveResult> {
    const inner: EventLog =
      log === "synced"
        ? new DurableObjectEventLog(this.ctx.storage, runId, systemClock)
        : new SketchEventLog(this.ctx.storage, runId, "none");
    await inner.append([{ type: "RunRequested", payload: { workflowId, input, trigger: { kind: "lwir" }, tenant: "dev", lwir } }]);
    let appends = 0;
    const events: EventLog = {
      runId,
      append: (batch) => {
        appends += 1;
        return inner.append(batch);
      },
      all: () => inner.all(),
      page: (options) => inner.page(options),
    };
    const started = performance.now();
    const wiring = wire(this.env);
    const result = await driveRun({
      ...wiring,
      blobs: wiring.blobsFor({ tenant: "dev", runId }),
      runId,
      log: events,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      sliceMs: 600_000,
    });
    const ms = performance.now() - started;
    return { ms, status: result.status, events: (await events.all()).length, appends };
  }

  /**
   * The floor under one logged event: a single-row insert into this object's SQLite, each followed
   * by `await storage.sync()` when `sync`, else all in one synchronous turn.
   */
  async insertFloor(count: number, sync: boolean): Promise<AppendResult> {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS floor (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)");
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      sql.exec("INSERT INTO floor (payload) VALUES (?)", `{"stepPath":"c1/s${i}","attempt":1}`);
      if (sync) await this.ctx.storage.sync();
    }
    return { events: count, batch: 1, writers: 1, ms: performance.now() - started };
  }
}
