/**
 * @module Exports one run's spans as its log grows (docs/observability.md). The run object calls
 * {@link RunTracer.schedule} after its appends and hands the promise to `waitUntil`: the run never
 * waits on it, and nothing it does can change the run. The spans come from the log
 * ({@link RunSpanBuilder}); an export cursor (the log position whose spans have all been sent or
 * dropped) is kept by the object, so a restarted object folds the log again and sends only the
 * spans that end after it. A crash after a send and before the cursor lands sends those spans once
 * more, with the same ids (at least once; a replay adds no events, so it sends nothing).
 */
import type { EventLog } from "../../ports/event-log.ts";
import type { SpanExporter, TraceSpan } from "../../ports/span-exporter.ts";
import { RunSpanBuilder, type SpanBuilderOptions } from "./run-span-builder.ts";

/** Where the object keeps the export cursor (its `meta` table). */
export type ExportCursor = { read(): number; write(seq: number): void };

export type RunTracerPorts = {
  readonly runId: string;
  readonly log: Pick<EventLog, "page">;
  readonly exporter: SpanExporter;
  readonly cursor: ExportCursor;
  /** The definition's telemetry options (`recordContent`), read once per object. */
  readonly options?: () => Promise<SpanBuilderOptions>;
  /** Waits between retries; injected so tests need no real time. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Where dropped spans are reported (default: one `console.warn` JSON line). */
  readonly onDropped?: (count: number, reason: string) => void;
};

export type RunTracerLimits = {
  /** Spans held for export at most; beyond it the oldest are dropped (and counted). */
  readonly maxBuffered: number;
  /** Spans per OTLP request. */
  readonly batchSize: number;
  /** Waits before each retry of a retriable failure; its length is the number of retries. */
  readonly backoffMs: readonly number[];
  /** Waits this long before a pass, so the appends of a burst (a slice's steps) go in one request. */
  readonly coalesceMs: number;
};

export const DEFAULT_TRACER_LIMITS: RunTracerLimits = {
  maxBuffered: 2_048,
  batchSize: 512,
  backoffMs: [250, 1_000, 4_000],
  coalesceMs: 100,
};

const PAGE = 500;

export class RunTracer {
  /** Spans dropped by this object (buffer full, or the collector failed past the retries). */
  dropped = 0;
  /** Spans this object sent that the collector accepted. */
  exported = 0;
  private builder: RunSpanBuilder | null = null;
  private buffer: TraceSpan[] = [];
  private running: Promise<void> | null = null;
  private again = false;
  private readonly ports: RunTracerPorts;
  private readonly limits: RunTracerLimits;

  constructor(ports: RunTracerPorts, limits: RunTracerLimits = DEFAULT_TRACER_LIMITS) {
    this.ports = ports;
    this.limits = limits;
  }

  /**
   * Folds what the log gained and sends the spans it ended. Calls made while one runs coalesce
   * into one more pass after it. Never rejects.
   */
  schedule(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async () => {
      do {
        if (this.limits.coalesceMs > 0) await this.sleep(this.limits.coalesceMs);
        this.again = false;
        await this.pass().catch((error: unknown) => this.drop(this.buffer.splice(0).length, `export failed: ${messageOf(error)}`));
      } while (this.again);
    };
    this.running = run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    const builder = await this.ensureBuilder();
    const cursor = this.ports.cursor.read();
    for (;;) {
      const events = await this.ports.log.page({ after: builder.lastSeq, limit: PAGE });
      for (const span of builder.addAll(events)) if (span.endSeq > cursor) this.hold(span);
      if (events.length < PAGE) break;
    }
    await this.send();
    if (this.buffer.length === 0 && builder.lastSeq > cursor) this.ports.cursor.write(builder.lastSeq);
  }

  private async ensureBuilder(): Promise<RunSpanBuilder> {
    if (!this.builder) this.builder = new RunSpanBuilder(this.ports.runId, (await this.ports.options?.().catch(() => ({}))) ?? {});
    return this.builder;
  }

  private hold(span: TraceSpan): void {
    this.buffer.push(span);
    const over = this.buffer.length - this.limits.maxBuffered;
    if (over > 0) this.drop(this.buffer.splice(0, over).length, "buffer full");
  }

  private async send(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.slice(0, this.limits.batchSize);
      const outcome = await this.exportWithRetries(batch);
      this.buffer.splice(0, batch.length);
      if (outcome === null) this.exported += batch.length;
      else this.drop(batch.length, outcome);
    }
  }

  /** null when the collector took the batch, else why it was given up. */
  private async exportWithRetries(batch: readonly TraceSpan[]): Promise<string | null> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.ports.exporter.export(batch);
      if (result.ok) return null;
      const wait = this.limits.backoffMs[attempt];
      if (!result.retriable || wait === undefined) return result.message;
      await this.sleep(wait);
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.ports.sleep ? this.ports.sleep(ms) : new Promise<void>((resolve) => setTimeout(resolve, ms));
  }

  private drop(count: number, reason: string): void {
    if (count === 0) return;
    this.dropped += count;
    if (this.ports.onDropped) this.ports.onDropped(count, reason);
    else console.warn(JSON.stringify({ level: "warn", msg: "spans dropped", runId: this.ports.runId, count, total: this.dropped, reason }));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
