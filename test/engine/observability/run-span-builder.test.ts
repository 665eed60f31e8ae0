import { describe, expect, it } from "vitest";
import { RunSpanBuilder, spansOfLog } from "../../../src/engine/observability/run-span-builder.ts";
import { spanIdOf, traceIdOf } from "../../../src/engine/observability/trace-context.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import type { TraceSpan } from "../../../src/ports/span-exporter.ts";
import type { SavedHistory } from "../../histories/record-scenario.ts";

const saved = import.meta.glob("../../histories/*.json", { eager: true, import: "default" }) as Record<string, SavedHistory>;
const history = (name: string) => saved[`../../histories/${name}.json`] as SavedHistory;

function byName(spans: readonly TraceSpan[], name: string): TraceSpan {
  const found = spans.find((s) => s.name === name);
  if (!found) throw new Error(`no span ${name} in ${spans.map((s) => s.name).join(", ")}`);
  return found;
}

function assertOneTree(spans: readonly TraceSpan[]): void {
  const ids = new Set(spans.map((s) => s.spanId));
  expect(ids.size).toBe(spans.length);
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const roots = spans.filter((s) => s.parentSpanId === undefined);
  expect(roots).toHaveLength(1);
  for (const s of spans) {
    if (s.parentSpanId !== undefined) expect(ids.has(s.parentSpanId), `${s.name}'s parent is in the trace`).toBe(true);
    expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
  }
}

describe("spans of a saved history (golden composite: planner, ai.generate, tool.call, code.run with a fixer, fan-out of 16)", () => {
  const h = history("golden-composite");
  const events = h.events as RunEvent[];
  const spans = spansOfLog(h.runId, events);

  it("is one tree under the run's root, with ids from (run id, seq)", () => {
    assertOneTree(spans);
    const root = byName(spans, "run reliability.golden");
    expect(root.traceId).toBe(traceIdOf(h.runId, null));
    expect(root.spanId).toBe(spanIdOf(h.runId, 1));
    expect(root.status.code).toBe("ok");
    expect(root.startMs).toBe(events[0]?.at);
    expect(root.endMs).toBe(events.at(-1)?.at);
    expect(root.attributes["little.version_id"]).toMatch(/^wfver_/);
    expect(root.attributes["little.definition_hash"]).toMatch(/^sha256:/);
    expect(root.attributes["little.tenant"]).toBe("default");
  });

  it("puts the planner session under the compile cycle, and its model and bash calls under it", () => {
    const compile = byName(spans, "compile cycle 1");
    const planner = spans.find((s) => s.name === "planner session") as TraceSpan;
    expect(planner.parentSpanId).toBe(compile.spanId);
    const calls = spans.filter((s) => s.parentSpanId === planner.spanId).map((s) => s.name);
    expect(calls).toEqual(["chat gpt-5", "execute_tool bash", "chat gpt-5", "execute_tool submit_lwir"]);
    const model = byName(spans, "chat gpt-5");
    expect(model.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai.responses",
      "gen_ai.request.model": "gpt-5",
      "gen_ai.response.model": "gpt-5",
    });
    expect(typeof model.attributes["gen_ai.usage.input_tokens"]).toBe("number");
    expect(model.attributes["gen_ai.output.messages"]).toBeUndefined();
  });

  it("has a span per step attempt, fan-out branches under their step, the fixer under code.run's step", () => {
    const notify = byName(spans, "step c1/notify");
    const branches = spans.filter((s) => s.name.startsWith("step c1/notify["));
    expect(branches).toHaveLength(16);
    for (const b of branches) expect(b.parentSpanId).toBe(notify.spanId);
    const score = byName(spans, "step c1/score");
    expect(byName(spans, "fixer session").parentSpanId).toBe(score.spanId);
    expect(byName(spans, "worker session").parentSpanId).toBe(byName(spans, "step c1/classify").spanId);
    expect(score.attributes).toMatchObject({ "little.step_path": "c1/score", "little.step_id": "score", "little.attempt": 1 });
  });

  it("exports each span once whatever the slices: folding in pieces gives the same spans", () => {
    const builder = new RunSpanBuilder(h.runId);
    const pieces = [events.slice(0, 7), events.slice(7, 30), events.slice(30)];
    const incremental = pieces.flatMap((piece) => builder.addAll(piece));
    expect(incremental).toEqual(spans);
    // A replayed prefix folds to nothing new.
    expect(builder.addAll(events.slice(0, 40))).toEqual([]);
  });

  it("records content only when the definition opts in", () => {
    const withContent = spansOfLog(h.runId, events, { recordContent: true });
    expect(byName(withContent, "chat gpt-5").attributes["gen_ai.output.messages"]).toContain("tool-call");
    expect(byName(withContent, "execute_tool bash").attributes["gen_ai.tool.call.arguments"]).toContain("mkdir");
  });

  it("names each step's kind from the LWIR the planner submitted", () => {
    expect(byName(spans, "step c1/score").attributes["little.step_kind"]).toBe("code.run");
    expect(byName(spans, "step c1/classify").attributes["little.step_kind"]).toBe("ai.generate");
    expect(byName(spans, "step c1/notify[3]").attributes["little.step_kind"]).toBe("tool.call");
  });
});

describe("spans of other saved histories", () => {
  for (const name of ["loop-retry", "decision-route", "outer-loop-replan", "outer-loop-failed-cycle", "seed-summarize"]) {
    it(`${name}: one tree, every step event's path has its span`, () => {
      const h = history(name);
      const spans = spansOfLog(h.runId, h.events as RunEvent[]);
      assertOneTree(spans);
      const paths = new Set((h.events as RunEvent[]).flatMap((e) => (e.type === "StepStarted" ? [e.payload.stepPath] : [])));
      for (const path of paths) expect(spans.some((s) => s.name === `step ${path}`)).toBe(true);
    });
  }
});
