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

/** The exports run in `waitUntil` after the appends: wait for the run's root span to arrive. */
async function rootArrived(spans: readonly TraceSpan[]): Promise<void> {
  for (let i = 0; i < 200 && !spans.some((s) => s.parentSpanId === undefined); i++) await new Promise((r) => setTimeout(r, 10));
}

function expectTreeOfLog(received: readonly TraceSpan[], expected: readonly TraceSpan[]): void {
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
    await rootArrived(sink.spans);
    expectTreeOfLog(sink.spans, spansOfLog("run_otel_straight", run.events));
    expect(new Set(sink.spans.map((s) => s.spanId)).size).toBe(sink.spans.length);
    expect(run.view.traceId).toBe(sink.spans[0]?.traceId);
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
    await rootArrived(sink.spans);
    expectTreeOfLog(sink.spans, spansOfLog("run_otel_crash", run.events));
  });
});
