/**
 * @module The spans of a run that have begun and not yet ended, and how one ends. Kept by
 * {@link RunSpanBuilder}; a span is emitted (as a {@link TraceSpan}) only when the event that ends
 * it is folded, so each span is exported once, at the log position that closed it.
 */
import type { SpanAttributeValue, TraceSpan, TraceSpanEvent } from "../../ports/span-exporter.ts";

export type Attributes = Record<string, SpanAttributeValue>;

/** A span that has begun: mutable until it ends (attributes and events gather from later events). */
export type OpenSpan = {
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly parentIsRemote?: boolean;
  readonly name: string;
  readonly kind: TraceSpan["kind"];
  readonly startMs: number;
  readonly startSeq: number;
  readonly attributes: Attributes;
  readonly events: TraceSpanEvent[];
};

/** How a span ended: its status and any attributes its end adds. */
export type SpanEnd = {
  readonly atMs: number;
  readonly seq: number;
  readonly status?: TraceSpan["status"];
  readonly attributes?: Attributes;
};

/** The finished span. An end before the start (a clock step back) is clamped to a zero-length span. */
export function endSpan(traceId: string, open: OpenSpan, end: SpanEnd): TraceSpan {
  return {
    traceId,
    spanId: open.spanId,
    ...(open.parentSpanId !== undefined ? { parentSpanId: open.parentSpanId } : {}),
    ...(open.parentIsRemote ? { parentIsRemote: true } : {}),
    name: open.name,
    kind: open.kind,
    startMs: open.startMs,
    endMs: Math.max(open.startMs, end.atMs),
    attributes: { ...open.attributes, ...end.attributes },
    events: [...open.events],
    status: end.status ?? { code: "unset" },
    startSeq: open.startSeq,
    endSeq: end.seq,
  };
}

/** The error status of a failed span, with its stable code as `little.cause_code`. */
export function errorEnd(atMs: number, seq: number, message: string, code?: string): SpanEnd {
  return { atMs, seq, status: { code: "error", message }, attributes: code ? { "little.cause_code": code } : {} };
}

/** Longest attribute text (content attributes, JSON of a payload): collectors cap them anyway. */
const MAX_TEXT = 8_192;

/** A JSON value as attribute text, cut at {@link MAX_TEXT} characters. */
export function jsonAttribute(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}
