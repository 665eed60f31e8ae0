/**
 * Live model output (docs/observability.md, "Live model output"): the durable wrapper reports a
 * live stream's deltas to the run's live calls as the provider streams them, never journals them,
 * and reports nothing on replay; a failing reader never fails the call.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { LiveCalls } from "../../src/engine/live/live-calls.ts";
import { PARTIAL_OBJECT_MAX_CHARS, partialObjectOf } from "../../src/engine/live/partial-object.ts";
import type { HarnessContext } from "../../src/harness/harness-context.ts";
import { Journal } from "../../src/harness/journal.ts";
import { runSession } from "../../src/harness/run-session.ts";
import type { LiveModelOutput, ModelDelta } from "../../src/ports/live-output.ts";
import { streamPartsOf } from "../../src/ports/model-stream-parts.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { result } from "../support/scripted-models.ts";
import { workerSessionSpec } from "./support/worker-session-spec.ts";

const NOW = 1_800_000_000_000;
const ANSWER = "Hello from a streamed answer.";

/** Streams ANSWER one character per text delta. */
function streamingModel() {
  return new MockLanguageModelV4({
    provider: "mock.stream",
    modelId: "m",
    doStream: async (_options: LanguageModelV4CallOptions) => {
      const parts = streamPartsOf(result([{ type: "text", text: ANSWER }])).flatMap((part): LanguageModelV4StreamPart[] =>
        part.type === "text-delta" ? [...part.delta].map((ch) => ({ ...part, delta: ch })) : [part],
      );
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

async function contextWith(liveOutput: LiveModelOutput, events: readonly RunEvent[] = []) {
  const log = new MemoryEventLog("run_live", { now: () => NOW });
  const seed =
    events.length > 0
      ? events
      : [{ type: "RunRequested", payload: { workflowId: "w", input: {}, trigger: { kind: "programmatic" }, tenant: "acme" } }];
  await log.append(seed.map(({ type, payload }) => ({ type, payload }) as never));
  const ctx: HarnessContext = {
    runId: log.runId,
    log,
    journal: new Journal(await log.all()),
    clock: { now: () => NOW },
    deadline: Number.POSITIVE_INFINITY,
    sleep: async () => {},
    liveOutput,
  };
  return { log, ctx };
}

describe("live model output from the durable wrapper", () => {
  it("reports each delta as it streams, in order, joined equal to the journaled answer; nothing of it is logged", async () => {
    const live = new LiveCalls();
    const seen: ModelDelta[] = [];
    let liveWhileStreaming = 0;
    live.listen((delta) => {
      seen.push(delta);
      liveWhileStreaming = Math.max(liveWhileStreaming, live.snapshot().length);
    });
    const { log, ctx } = await contextWith(live);
    const outcome = await runSession(workerSessionSpec(streamingModel(), { stepPath: "c1/greet" }), ctx);
    expect(outcome).toEqual({ ok: true, output: ANSWER });

    expect(seen).toHaveLength(ANSWER.length);
    expect(seen.map((d) => d.offset)).toEqual([...ANSWER].map((_, i) => i));
    expect(seen.map((d) => d.text).join("")).toBe(ANSWER);
    expect(seen[0]).toMatchObject({
      sessionId: "s1",
      callId: "s1/model/1",
      call: 1,
      role: "worker",
      stepPath: "c1/greet",
      channel: "text",
    });
    expect(seen[0]).not.toHaveProperty("partial");
    expect(liveWhileStreaming).toBe(1);
    // The call ended: nothing is live any more.
    expect(live.snapshot()).toEqual([]);

    const events = await log.all();
    const responded = events.find((e) => e.type === "harness.model.responded");
    expect((responded?.payload.response as { content?: { text: string }[] } | undefined)?.content?.[0]?.text).toBe(ANSWER);
    expect(JSON.stringify(events)).not.toContain('"delta"');
  });

  it("reports nothing when the call is replayed from the log", async () => {
    const first = await contextWith(new LiveCalls());
    await runSession(workerSessionSpec(streamingModel()), first.ctx);
    const live = new LiveCalls();
    const seen: ModelDelta[] = [];
    live.listen((delta) => seen.push(delta));
    const replay = await contextWith(live, await first.log.all());
    const model = streamingModel();
    expect(await runSession(workerSessionSpec(model), replay.ctx)).toEqual({ ok: true, output: ANSWER });
    expect(model.doStreamCalls).toHaveLength(0);
    expect(seen).toEqual([]);
  });

  it("never fails a call because the live output throws", async () => {
    const throwing: LiveModelOutput = {
      begin: () => {
        throw new Error("begin broke");
      },
      delta: () => {
        throw new Error("delta broke");
      },
      end: () => {
        throw new Error("end broke");
      },
    };
    const { ctx } = await contextWith(throwing);
    expect(await runSession(workerSessionSpec(streamingModel()), ctx)).toEqual({ ok: true, output: ANSWER });
  });
});

describe("LiveCalls", () => {
  const call = { sessionId: "worker:c1/a:a1", callId: "worker:c1/a:a1/model/1", call: 1, role: "worker", stepPath: "c1/a" } as const;

  it("gives a late listener the text so far at offset 0, then the rest from where it was", () => {
    const live = new LiveCalls();
    live.begin({ ...call, structured: false });
    live.delta(call.callId, "text", "Hel");
    live.delta(call.callId, "reasoning", "thinking");
    expect(live.snapshot()).toEqual([
      { ...call, channel: "text", offset: 0, text: "Hel" },
      { ...call, channel: "reasoning", offset: 0, text: "thinking" },
    ]);
    const seen: ModelDelta[] = [];
    const stop = live.listen((d) => seen.push(d));
    live.delta(call.callId, "text", "lo");
    stop();
    live.delta(call.callId, "text", "!");
    expect(seen).toEqual([{ ...call, channel: "text", offset: 3, text: "lo" }]);
  });

  it("starts a retried attempt's text again, drops an ended call, ignores deltas of calls not begun, and drops a listener that throws", () => {
    const live = new LiveCalls();
    const seen: ModelDelta[] = [];
    live.listen(() => {
      throw new Error("a broken reader");
    });
    live.listen((d) => seen.push(d));
    live.begin({ ...call, structured: false });
    live.delta(call.callId, "text", "first try");
    live.begin({ ...call, structured: false });
    live.delta(call.callId, "text", "again");
    live.delta("not-begun", "text", "x");
    expect(seen.map((d) => [d.offset, d.text])).toEqual([
      [0, "first try"],
      [0, "again"],
    ]);
    live.end(call.callId);
    expect(live.snapshot()).toEqual([]);
  });

  it("parses a structured answer's partial object as the JSON text grows", () => {
    const live = new LiveCalls();
    const seen: ModelDelta[] = [];
    live.listen((d) => seen.push(d));
    live.begin({ ...call, structured: true });
    for (const chunk of ['{"summ', 'ary":"The dash', 'board", "severity":"hi', 'gh"}']) live.delta(call.callId, "text", chunk);
    expect(seen.map((d) => d.partial)).toEqual([
      {},
      { summary: "The dash" },
      { summary: "The dashboard", severity: "hi" },
      { summary: "The dashboard", severity: "high" },
    ]);
    expect(partialObjectOf("x".repeat(PARTIAL_OBJECT_MAX_CHARS + 1))).toBeUndefined();
    expect(partialObjectOf("not json")).toBeUndefined();
  });
});
