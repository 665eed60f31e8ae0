/**
 * Spans of a real run object (docs/observability.md): the golden run (planner, ai.generate,
 * tool.call, code.run with a fixer, a 16-branch fan-out) exported through the wiring's span
 * exporter, once straight through and once aborted mid-run and resumed from its alarm. Either way
 * the collector gets exactly the spans of the log's tree: the same ids, none missing, none new.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spansOfLog } from "../../src/engine/observability/run-span-builder.ts";
import type { SpanExporter, TraceSpan } from "../../src/ports/span-exporter.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runGolden } from "../reliability/durability/support/golden-do-run.ts";

afterEach(() => overrideWiring({}));

/** Spans as a collector would get them (kept at module level: it survives `ctx.abort()`). */
function collector(): SpanExporter & { spans: TraceSpan[] } {
  const spans: TraceSpan[] = [];
  return {
    spans,
    export: async (batch) => {
      spans.push(...batch);
      return { ok: true };
    },
  };
}

/**
 * The exports run in `waitUntil` after the appends: wait for this run's root span to arrive (its
 * trace's: a span of another run exported late into the same sink is no sign this run's are in).
 */
async function rootArrived(spans: readonly TraceSpan[], expected: readonly TraceSpan[]): Promise<void> {
  const root = expected.find((s) => s.parentSpanId === undefined)?.spanId;
  for (let i = 0; i < 200 && !spans.some((s) => s.spanId === root); i++) await new Promise((r) => setTimeout(r, 10));
}

function expectTreeOfLog(all: readonly TraceSpan[], expected: readonly TraceSpan[]): void {
  const traceId = expected[0]?.traceId;
  const received = all.filter((s) => s.traceId === traceId);
  const byId = new Map<string, TraceSpan>();
  for (const span of received) {
    const seen = byId.get(span.spanId);
    // At least once: a span sent again after a crash is the same span, byte for byte.
    if (seen) expect(span).toEqual(seen);
    byId.set(span.spanId, span);
  }
  expect([...byId.keys()].sort()).toEqual(expected.map((s) => s.spanId).sort());
  for (const span of expected) expect(byId.get(span.spanId)).toEqual(span);
}

describe("a run object's spans", () => {
  it("are exported once, and are the log's tree", async () => {
    const sink = collector();
    const run = await runGolden("run_otel_straight", {}, 40, (wired) => ({ ...wired, spans: sink }));
    expect(run.view.status).toBe("completed");
    const expected = spansOfLog("run_otel_straight", run.events);
    await rootArrived(sink.spans, expected);
    expectTreeOfLog(sink.spans, expected);
    const ours = sink.spans.filter((s) => s.traceId === expected[0]?.traceId);
    expect(new Set(ours.map((s) => s.spanId)).size).toBe(ours.length);
    expect(ours.length).toBe(expected.length);
    expect(run.view.traceId).toBe(expected[0]?.traceId);
  });

  it("a crash mid-run and the resume: still one tree with the same ids, nothing missing", async () => {
    const sink = collector();
    let crashed = false;
    const run = await runGolden(
      "run_otel_crash",
      {
        afterAppend: (events, ctx) => {
          if (!crashed && events.some((e) => e.seq >= 40)) {
            crashed = true;
            ctx.abort();
          }
        },
      },
      40,
      (wired) => ({ ...wired, spans: sink }),
    );
    expect(crashed).toBe(true);
    expect(run.view.status).toBe("completed");
    const expected = spansOfLog("run_otel_crash", run.events);
    await rootArrived(sink.spans, expected);
    expectTreeOfLog(sink.spans, expected);
  });
});
