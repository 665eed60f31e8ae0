/**
 * @module The span exporter port: where a run's trace goes (docs/observability.md). The engine
 * builds {@link TraceSpan}s from a run's event log; an adapter encodes and sends them (OTLP over
 * HTTP in production). Exporting never changes what a run does: the run never waits on it.
 */

/** An attribute value as OpenTelemetry carries it (no nested objects: those are JSON text). */
export type SpanAttributeValue = string | number | boolean;

/** A point in a span (an event of the log the span builder has no span for). */
export type TraceSpanEvent = {
  readonly name: string;
  readonly atMs: number;
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
};

/**
 * One finished span of a run's trace, all from the log: ids derive from the run id and the seq
 * that opened it, times are the events' `at`. `endSeq` is the seq that closed it (the export
 * cursor's unit: a span is exported once, when the log first holds its end).
 */
export type TraceSpan = {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  /** True when the parent is the caller's span (from a `traceparent`), not one of the run's. */
  readonly parentIsRemote?: boolean;
  readonly name: string;
  readonly kind: "internal" | "client" | "server";
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
  readonly events: readonly TraceSpanEvent[];
  readonly status: { readonly code: "unset" | "ok" | "error"; readonly message?: string };
  readonly startSeq: number;
  readonly endSeq: number;
};

/** What one export attempt came to: `retriable` failures are tried again (with backoff). */
export type SpanExportResult = { readonly ok: true } | { readonly ok: false; readonly retriable: boolean; readonly message: string };

/** Sends finished spans to a collector. One call is one batch (one OTLP request). */
export interface SpanExporter {
  export(spans: readonly TraceSpan[]): Promise<SpanExportResult>;
}
