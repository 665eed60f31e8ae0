/**
 * @module Turns a run's event log into OpenTelemetry spans (docs/observability.md): one trace per
 * run, a root span for the run, children for compile cycles, harness sessions, model and tool
 * calls, step attempts (fan-out branches and loop visits by their step path), waits and section
 * occurrences. Pure over the events: the same log gives the same spans, ids included, so a crash,
 * an eviction or a replay exports nothing new. What each event type does is the table in
 * `span-handlers.ts`; an event type it does not know becomes a span event on the innermost open
 * span of its step (or the run), so a new event type needs no change here to show up.
 */
import type { RunEvent } from "../../ports/run-events.ts";
import type { TraceSpan } from "../../ports/span-exporter.ts";
import { type Attributes, endSpan, errorEnd, type OpenSpan, type SpanEnd } from "./open-spans.ts";
import { enclosingPaths, type SpanBuilderOptions, type SpanFold } from "./span-fold.ts";
import { SPAN_HANDLERS } from "./span-handlers.ts";
import { spanIdOf, type TraceParent, traceIdOf } from "./trace-context.ts";

/**
 * The fold: {@link add} each event in seq order; it returns the spans that event ended. Spans
 * still open when the log ends are not returned (they end with a later event, or the run's end).
 */
export class RunSpanBuilder implements SpanFold {
  readonly runId: string;
  readonly options: SpanBuilderOptions;
  traceId: string;
  root: OpenSpan | null = null;
  /** Open spans by what a later event names them by. */
  readonly compiles = new Map<number, OpenSpan>();
  readonly sessions = new Map<string, OpenSpan>();
  readonly calls = new Map<string, OpenSpan>();
  readonly steps = new Map<string, OpenSpan>();
  readonly approvals = new Map<string, OpenSpan>();
  readonly occurrences = new Map<string, OpenSpan>();
  triggerWait: OpenSpan | null = null;
  readonly stepKinds = new Map<string, string>();
  readonly drafts = new Map<string, unknown>();
  lastSeq = 0;
  /** Attributes every span of the run carries (run id; the workflow once the request is folded). */
  scope: Attributes;

  constructor(runId: string, options: SpanBuilderOptions = {}) {
    this.runId = runId;
    this.options = options;
    this.traceId = traceIdOf(runId, null);
    this.scope = { "little.run_id": runId };
  }

  /** Folds one event; returns the spans it ended (children before their parents). */
  add(event: RunEvent): TraceSpan[] {
    if (event.seq <= this.lastSeq) return [];
    this.lastSeq = event.seq;
    const handler = SPAN_HANDLERS[event.type] as ((b: SpanFold, e: RunEvent) => TraceSpan[]) | undefined;
    if (handler) return handler(this, event);
    this.annotate(event);
    return [];
  }

  /** Folds many events; returns every span they ended. */
  addAll(events: readonly RunEvent[]): TraceSpan[] {
    return events.flatMap((event) => this.add(event));
  }

  /** Sets the trace from the start's `traceparent` (before the root opens). */
  adoptParent(parent: TraceParent | null): void {
    this.traceId = traceIdOf(this.runId, parent);
  }

  /** Opens a span at `event`; its parent is given or the run's root. A second span opened by one event needs a `discriminator` (its id is then distinct). */
  open(
    event: RunEvent,
    name: string,
    attributes: Attributes,
    parent?: OpenSpan | null,
    kind: TraceSpan["kind"] = "internal",
    discriminator = "",
  ): OpenSpan {
    const parentSpan = parent === undefined ? this.root : parent;
    return {
      spanId: spanIdOf(this.runId, event.seq, discriminator),
      ...(parentSpan ? { parentSpanId: parentSpan.spanId } : {}),
      name,
      kind,
      startMs: event.at,
      startSeq: event.seq,
      attributes: { ...this.scope, ...attributes },
      events: [],
    };
  }

  /** Opens `next` under `key`; one already open there (a call or attempt re-run after a crash) ends as superseded. */
  reopen(map: Map<string, OpenSpan>, key: string, next: OpenSpan, e: RunEvent): TraceSpan[] {
    const prior = map.get(key);
    map.set(key, next);
    return prior
      ? [this.close(prior, errorEnd(e.at, e.seq, "superseded: the run object ran it again (a restart or a retry)", "superseded"))]
      : [];
  }

  /** Removes and returns the span open under `key`. */
  take<K>(map: Map<K, OpenSpan>, key: K): OpenSpan | undefined {
    const open = map.get(key);
    map.delete(key);
    return open;
  }

  /** Ends an open span. */
  close(open: OpenSpan, end: SpanEnd): TraceSpan {
    return endSpan(this.traceId, open, end);
  }

  /** The open span a step path's spans hang under: its innermost open enclosing step, else the run. */
  parentOfStep(stepPath: string): OpenSpan | null {
    for (const path of enclosingPaths(stepPath)) {
      const open = this.steps.get(path);
      if (open) return open;
    }
    return this.root;
  }

  /** An event with no handler: a span event on its step's open span, or on the run's. */
  annotate(event: RunEvent): void {
    const payload = event.payload as { stepPath?: unknown };
    const stepPath = typeof payload.stepPath === "string" ? payload.stepPath : undefined;
    const target = (stepPath !== undefined ? (this.steps.get(stepPath) ?? this.parentOfStep(stepPath)) : null) ?? this.root;
    target?.events.push({
      name: event.type,
      atMs: event.at,
      attributes: { "little.seq": event.seq, ...(stepPath !== undefined ? { "little.step_path": stepPath } : {}) },
    });
  }

  /** Ends every open span at the run's end (children first, the root last). */
  closeAll(end: SpanEnd, rootEnd: SpanEnd): TraceSpan[] {
    const endedBy = { ...end, attributes: { ...end.attributes, "little.ended_by_run": true } };
    const out: TraceSpan[] = [];
    const drain = (spans: Map<unknown, OpenSpan>) => {
      for (const open of [...spans.values()].reverse()) out.push(this.close(open, endedBy));
      spans.clear();
    };
    drain(this.calls);
    drain(this.approvals);
    drain(this.sessions);
    drain(this.steps);
    drain(this.occurrences);
    drain(this.compiles);
    if (this.triggerWait) out.push(this.close(this.triggerWait, endedBy));
    this.triggerWait = null;
    if (this.root) out.push(this.close(this.root, rootEnd));
    this.root = null;
    return out;
  }
}

/** Every span a whole log has ended (a finished run's whole trace). */
export function spansOfLog(runId: string, events: readonly RunEvent[], options: SpanBuilderOptions = {}): TraceSpan[] {
  return new RunSpanBuilder(runId, options).addAll(events);
}

export { type SpanBuilderOptions, stepIdOf } from "./span-fold.ts";
