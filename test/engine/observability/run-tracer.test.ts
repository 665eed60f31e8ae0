import { describe, expect, it } from "vitest";
import { spansOfLog } from "../../../src/engine/observability/run-span-builder.ts";
import { RunTracer } from "../../../src/engine/observability/run-tracer.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import type { SpanExporter, SpanExportResult, TraceSpan } from "../../../src/ports/span-exporter.ts";
import type { SavedHistory } from "../../histories/record-scenario.ts";

const saved = import.meta.glob("../../histories/golden-composite.json", { eager: true, import: "default" }) as Record<string, SavedHistory>;
const golden = Object.values(saved)[0] as SavedHistory;
const all = golden.events as RunEvent[];

/** A log that holds the first `n` events of the history (grown by the test, as appends would). */
function growingLog() {
  let held = 0;
  return {
    grow: (n: number) => {
      held = n;
    },
    page: async ({ after, limit }: { after: number; limit: number }) =>
      all
        .slice(0, held)
        .filter((e) => e.seq > after)
        .slice(0, limit),
  };
}

/** Records each batch; answers from a script of results (then ok). */
function recordingExporter(script: SpanExportResult[] = []): SpanExporter & { batches: TraceSpan[][] } {
  const batches: TraceSpan[][] = [];
  return {
    batches,
    export: async (spans) => {
      batches.push([...spans]);
      return script.shift() ?? { ok: true };
    },
  };
}

function memoryCursor() {
  let seq = 0;
  return {
    read: () => seq,
    write: (s: number) => {
      seq = s;
    },
    get: () => seq,
  };
}

const noSleep = async () => {};

describe("RunTracer", () => {
  it("exports every span of a run once across appends, a restart and a replayed prefix", async () => {
    const log = growingLog();
    const exporter = recordingExporter();
    const cursor = memoryCursor();
    const first = new RunTracer({ runId: golden.runId, log, exporter, cursor, sleep: noSleep });
    log.grow(30);
    await first.schedule();
    const cut = cursor.get();
    expect(cut).toBe(30);
    // The object restarts (a crash, an eviction): a new tracer folds the log again from seq 1.
    const second = new RunTracer({ runId: golden.runId, log, exporter, cursor, sleep: noSleep });
    await second.schedule(); // nothing new in the log: nothing sent
    log.grow(all.length);
    await second.schedule();
    const sent = exporter.batches.flat();
    expect(sent.map((s) => s.spanId).sort()).toEqual(
      spansOfLog(golden.runId, all)
        .map((s) => s.spanId)
        .sort(),
    );
    expect(new Set(sent.map((s) => s.spanId)).size).toBe(sent.length);
    expect(first.dropped + second.dropped).toBe(0);
  });

  it("retries a retriable failure with backoff, then counts the batch as dropped", async () => {
    const log = growingLog();
    log.grow(all.length);
    const waits: number[] = [];
    const failing = { ok: false as const, retriable: true, message: "connection refused" };
    const exporter = recordingExporter([failing, failing, failing, failing]);
    const dropped: string[] = [];
    const tracer = new RunTracer(
      {
        runId: golden.runId,
        log,
        exporter,
        cursor: memoryCursor(),
        sleep: async (ms) => void waits.push(ms),
        onDropped: (n, why) => void dropped.push(`${n}:${why}`),
      },
      { maxBuffered: 1_000, batchSize: 1_000, backoffMs: [10, 20, 30], coalesceMs: 0 },
    );
    await tracer.schedule();
    expect(waits).toEqual([10, 20, 30]);
    expect(exporter.batches).toHaveLength(4);
    expect(tracer.dropped).toBe(spansOfLog(golden.runId, all).length);
    expect(dropped).toEqual([`${tracer.dropped}:connection refused`]);
  });

  it("keeps a bounded buffer: the oldest spans past it are dropped and counted", async () => {
    const log = growingLog();
    log.grow(all.length);
    const exporter = recordingExporter();
    const tracer = new RunTracer(
      { runId: golden.runId, log, exporter, cursor: memoryCursor(), sleep: noSleep, onDropped: () => {} },
      { maxBuffered: 10, batchSize: 4, backoffMs: [], coalesceMs: 0 },
    );
    await tracer.schedule();
    const total = spansOfLog(golden.runId, all).length;
    expect(tracer.dropped + tracer.exported).toBe(total);
    expect(tracer.exported).toBeLessThanOrEqual(10);
    expect(exporter.batches.every((b) => b.length <= 4)).toBe(true);
  });

  it("does not retry a failure the collector calls final (a 400)", async () => {
    const log = growingLog();
    log.grow(all.length);
    const exporter = recordingExporter([{ ok: false, retriable: false, message: "collector answered 400" }]);
    const tracer = new RunTracer({ runId: golden.runId, log, exporter, cursor: memoryCursor(), sleep: noSleep, onDropped: () => {} });
    await tracer.schedule();
    expect(exporter.batches).toHaveLength(1);
    expect(tracer.dropped).toBeGreaterThan(0);
  });
});
