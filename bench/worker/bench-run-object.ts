/**
 * A run object with bench-only doors, bound as `BENCH_RUNS` in the bench Worker only:
 * `replayFrom` loads a finished run's log without its terminal event (what a crash just before
 * `RunCompleted` leaves behind) and runs the real alarm, which replays the log and finishes the
 * run; `appendThroughput` and `insertFloor` time appends inside the object (the adapter, the
 * sketches, raw SQLite); `driveWith` runs the engine alone on the real or a no-sync log;
 * `fillLog` makes this object a long run at rest (its log appended through the run's own log).
 *
 * It writes the `meta` and `events` tables of RunObject and DurableObjectEventLog directly (their
 * layout is copied here): a change of either layout must be mirrored, and the replay check
 * (same output, 0 model calls) would show it.
 */
import { RunObject } from "../../durable-objects/run.ts";
import { DurableObjectEventLog } from "../../src/adapters/do-sqlite/do-event-log.ts";
import { driveRun } from "../../src/engine/drive-run.ts";
import { runEnvironment } from "../../src/engine/run-environment.ts";
import { indexRun } from "../../src/engine/run-host/index-run.ts";
import { deriveRunState, RUN_STATE_FOLD } from "../../src/engine/run-state.ts";
import { canonicalJson } from "../../src/json/canonical-json.ts";
import { systemClock } from "../../src/ports/clock.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import { isTerminalType, type NewRunEvent, type RunEvent } from "../../src/ports/run-events.ts";
import { runObjectLog, wire } from "../../src/wiring.ts";
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

/** `events`: the log's length after the fill; `appended`, `ms`, `payloadBytes`: this fill's. */
export type FillResult = { events: number; appended: number; batch: number; ms: number; payloadBytes: number; checkpointSeq: number };

/** A tool's output of about 1 KB: a directory listing of the turn's page of the ticket queue. */
function listing(turn: number): string {
  return Array.from({ length: 32 }, (_, i) => `ticket-${turn}-${String(i).padStart(2, "0")}.json  1.2K`).join("\n");
}

/**
 * The events of one long agent session, four per model turn: the call, the answer, the tool call
 * and its result (a 1 KB listing, so that the log's size in memory stands out from the heap's noise).
 */
function sessionEvents(from: number, n: number): NewRunEvent[] {
  const events: NewRunEvent[] = [];
  for (let i = from; i < from + n; i++) {
    const turn = i >> 2;
    const callId = `c${turn}`;
    const kind = i % 4;
    if (kind === 0)
      events.push({
        type: "harness.model.called",
        payload: {
          sessionId: "s1",
          callId,
          turn,
          requestHash: `sha256:${"0".repeat(64)}`,
          modelSlotId: "worker",
          providerId: "offline",
          modelId: "bench",
        },
      });
    else if (kind === 1)
      events.push({
        type: "harness.model.responded",
        payload: {
          sessionId: "s1",
          callId,
          response: { text: `turn ${turn}: look at the next page of the ticket queue`, finishReason: "tool-calls" },
          usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150, costUsd: null },
          model: { providerId: "offline", modelId: "bench", offline: true },
        },
      });
    else if (kind === 2)
      events.push({
        type: "harness.tool_call.started",
        payload: {
          sessionId: "s1",
          callId,
          caller: "model",
          tool: "bash",
          args: { command: `ls /queue/${turn}` },
          idempotencyKey: `k${turn}`,
        },
      });
    else
      events.push({
        type: "harness.tool_call.succeeded",
        payload: { sessionId: "s1", callId, tool: "bash", result: { stdout: listing(turn), exitCode: 0 } },
      });
  }
  return events;
}

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
   * through the bench sketch that shares one sync among the appends of a turn; with `checkpoint`,
   * through the adapter checkpointing the run state fold as the run object's log does (each step
   * path is new, so the state grows with the log: the checkpoints' worst case).
   */
  async appendThroughput(count: number, batch: number, writers = 1, groupCommit = false, checkpoint = false): Promise<AppendResult> {
    const log = groupCommit
      ? new SketchEventLog(this.ctx.storage, "run_bench_append", "group")
      : new DurableObjectEventLog(this.ctx.storage, "run_bench_append", systemClock, {}, checkpoint ? RUN_STATE_FOLD : undefined);
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
   * Makes this object run `runId` of `tenant` (its request and index row, as `running`, the first
   * time), then appends `count` more events of a long agent session, `batch` at a time, through the
   * run object's own log (`runObjectLog`: the production append, sync and fold checkpoints). No
   * alarm is armed: the run is only read afterwards (paged and shown over the API).
   */
  async fillLog(runId: string, tenant: string, count: number, batch: number): Promise<FillResult> {
    const sql = this.ctx.storage.sql;
    const wiring = wire(this.env);
    const log = runObjectLog(this.ctx, runId, wiring.clock, () => {});
    const owner = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'runId'").toArray()[0]?.value;
    if (owner === undefined) {
      sql.exec("INSERT INTO meta (key, value) VALUES ('runId', ?), ('tenant', ?)", runId, tenant);
      const requested = await log.append([
        { type: "RunRequested", payload: { workflowId: "bench.paged-log", input: {}, trigger: { kind: "http" }, tenant } },
      ]);
      await indexRun({ runId, runs: wiring.runs, clock: wiring.clock }, deriveRunState(requested), "running");
    } else if (owner !== runId) throw new Error(`bench object for ${runId} holds ${owner}`);
    let last = sql.exec<{ seq: number }>("SELECT max(seq) AS seq FROM events").one().seq;
    const first = last;
    const started = performance.now();
    for (let left = count; left > 0; ) {
      const n = Math.min(batch, left);
      await log.append(sessionEvents(last, n));
      last += n;
      left -= n;
    }
    const ms = performance.now() - started;
    // Measured from the stored rows, after the timed appends (workerd's clock moves only across I/O).
    const payloadBytes = sql.exec<{ n: number }>("SELECT sum(length(payload)) AS n FROM events WHERE seq > ?", first).one().n;
    return { events: last, appended: count, batch, ms, payloadBytes, checkpointSeq: (await log.checkpoint())?.seq ?? 0 };
  }

  /** Reads this run's whole log at once, as `status()` did before fold checkpoints: for the memory it takes. */
  async readWholeLog(runId: string): Promise<{ events: number }> {
    return { events: (await runObjectLog(this.ctx, runId, wire(this.env).clock, () => {}).all()).length };
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
      checkpoint: () => inner.checkpoint(),
    };
    const started = performance.now();
    const wiring = wire(this.env);
    const result = await driveRun(runEnvironment({ ...wiring, sliceMs: 600_000 }, { runId, tenant: "dev", log: events }));
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
