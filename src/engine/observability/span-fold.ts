/**
 * @module What an event handler of the span table sees of the builder (`run-span-builder.ts`
 * implements it): the open spans by key, and how to open, re-open, take and close one.
 */
import type { RunEvent, RunEventType } from "../../ports/run-events.ts";
import type { TraceSpan } from "../../ports/span-exporter.ts";
import type { Attributes, OpenSpan, SpanEnd } from "./open-spans.ts";
import type { TraceParent } from "./trace-context.ts";

export type SpanBuilderOptions = {
  /** `telemetry: { recordContent: true }` on the definition: model outputs and tool arguments and results as attributes (redacted as the log is). */
  readonly recordContent?: boolean;
  /** The LWIR kind of a step by its id (`ai.generate`, `tool.call`…), when the version is known; absent kinds are left out. */
  readonly stepKindOf?: (stepId: string) => string | undefined;
};

export interface SpanFold {
  readonly options: SpanBuilderOptions;
  root: OpenSpan | null;
  scope: Attributes;
  readonly compiles: Map<number, OpenSpan>;
  readonly sessions: Map<string, OpenSpan>;
  readonly calls: Map<string, OpenSpan>;
  readonly steps: Map<string, OpenSpan>;
  readonly approvals: Map<string, OpenSpan>;
  readonly occurrences: Map<string, OpenSpan>;
  triggerWait: OpenSpan | null;
  /** Step kinds by step id, from the LWIR the log holds (an authored plan, an accepted `submit_lwir`). */
  readonly stepKinds: Map<string, string>;
  /** LWIR drafts submitted and not yet answered, by call id. */
  readonly drafts: Map<string, unknown>;
  adoptParent(parent: TraceParent | null): void;
  open(
    event: RunEvent,
    name: string,
    attributes: Attributes,
    parent?: OpenSpan | null,
    kind?: TraceSpan["kind"],
    discriminator?: string,
  ): OpenSpan;
  reopen(map: Map<string, OpenSpan>, key: string, next: OpenSpan, e: RunEvent): TraceSpan[];
  take<K>(map: Map<K, OpenSpan>, key: K): OpenSpan | undefined;
  close(open: OpenSpan, end: SpanEnd): TraceSpan;
  parentOfStep(stepPath: string): OpenSpan | null;
  closeAll(end: SpanEnd, rootEnd: SpanEnd): TraceSpan[];
}

type Handler<K extends RunEventType> = (b: SpanFold, e: RunEvent<K>) => TraceSpan[];
/** Handlers by event type. */
export type SpanHandlers = { readonly [K in RunEventType]?: Handler<K> };

/** The step id a step path names: `c1/notify[3]` and `c1/try@2` are visits of `notify` and `try`. */
export function stepIdOf(stepPath: string): string {
  const last = stepPath.slice(stepPath.lastIndexOf("/") + 1);
  return last.replace(/(\[\d+\]|@\d+)+$/, "");
}

/** The paths a step path's span may hang under, innermost first: a fan-out branch under its step, a nested step under its parent. */
export function enclosingPaths(stepPath: string): string[] {
  const out: string[] = [];
  let path = stepPath;
  for (;;) {
    const branch = /\[\d+\]$/.exec(path);
    const next = branch ? path.slice(0, branch.index) : path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (next === "" || next === path) return out;
    out.push(next);
    path = next;
  }
}

/** Records `uses` of every step in an LWIR document (nested step lists included) as its kind. */
export function learnStepKinds(into: Map<string, string>, lwir: unknown, depth = 0): void {
  if (depth > 8 || lwir === null || typeof lwir !== "object") return;
  if (Array.isArray(lwir)) {
    for (const item of lwir) learnStepKinds(into, item, depth + 1);
    return;
  }
  const node = lwir as Record<string, unknown>;
  if (typeof node.id === "string" && typeof node.uses === "string") into.set(node.id, node.uses);
  for (const value of Object.values(node)) if (value !== null && typeof value === "object") learnStepKinds(into, value, depth + 1);
}
