/**
 * Sessions stream (`streamText`) and are journaled exactly as generated calls were: the same
 * events with the same request hashes and recorded answers, a replay with zero model calls, a cut
 * stream never recorded (the resume re-issues the call), 429/5xx retried with backoff, a hang
 * failing with `model_timeout`.
 */
import { AISDKError, APICallError, type LanguageModelV4CallOptions, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { OfflineLanguageModel } from "../../src/adapters/models/offline-model.ts";
import { toRunFailure } from "../../src/engine/to-run-failure.ts";
import { type HarnessContext, SliceYieldSignal } from "../../src/harness/harness-context.ts";
import { Journal } from "../../src/harness/journal.ts";
import { runSession, type SessionSpec } from "../../src/harness/run-session.ts";
import { streamPartsOf } from "../../src/ports/model-stream-parts.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { result } from "../support/scripted-models.ts";
import { echoTool, workerSessionSpec } from "./support/worker-session-spec.ts";

const NOW = 1_800_000_000_000;

/** Turn 1: some text, then a tool call; turn 2: the final text. */
function turnOf(options: LanguageModelV4CallOptions) {
  const done = options.prompt.some((m) => m.role === "tool");
  return done
    ? result([{ type: "text", text: "The echo said hi." }])
    : result([
        { type: "text", text: "Let me check." },
        { type: "tool-call", toolCallId: "call-1", toolName: "echo", input: JSON.stringify({ say: "hi" }) },
      ]);
}

function partsStream(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A provider-like model that streams each turn in small deltas. */
function streamingModel() {
  return new MockLanguageModelV4({
    provider: "mock.stream",
    modelId: "m",
    doStream: async (options) => {
      const parts = streamPartsOf(turnOf(options)).flatMap((part): LanguageModelV4StreamPart[] =>
        part.type === "text-delta" ? [...part.delta].map((ch) => ({ ...part, delta: ch })) : [part],
      );
      return { stream: partsStream(parts) };
    },
  });
}

function generatingModel() {
  return new MockLanguageModelV4({ provider: "mock.stream", modelId: "m", doGenerate: async (options) => turnOf(options) });
}

const refusing = () =>
  new MockLanguageModelV4({
    doGenerate: async () => {
      throw new Error("replay must not call the model");
    },
    doStream: async () => {
      throw new Error("replay must not call the model");
    },
  });

async function newContext(events: readonly RunEvent[] = [], extra: Partial<HarnessContext> = {}) {
  const log = new MemoryEventLog("run_stream", { now: () => NOW });
  if (events.length === 0) {
    await log.append([
      { type: "RunRequested", payload: { workflowId: "w", input: {}, trigger: { kind: "programmatic" }, tenant: "acme" } },
    ]);
  } else {
    await log.append(events.map(({ type, payload }) => ({ type, payload }) as never));
  }
  const sleeps: number[] = [];
  const ctx: HarnessContext = {
    runId: log.runId,
    log,
    journal: new Journal(await log.all()),
    clock: { now: () => NOW },
    deadline: Number.POSITIVE_INFINITY,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  };
  return { log, ctx, sleeps };
}

function spec(model: SessionSpec["model"], executed: string[] = []): SessionSpec {
  const inputs: unknown[] = [];
  const echo = echoTool(
    inputs,
    (input) => {
      executed.push(JSON.stringify(input));
      return { said: input.say };
    },
    true,
  );
  return workerSessionSpec(model, {
    slot: { id: "m", providerId: "mock.stream", modelId: "m", offline: false },
    prompt: "Ask the echo.",
    tools: { echo },
    stopWhen: ({ steps }) => steps.length >= 4,
  });
}

const harnessEvents = (events: readonly RunEvent[]) =>
  events.filter((e) => e.type.startsWith("harness.")).map((e) => ({ type: e.type, payload: e.payload }));

describe("streaming sessions", () => {
  it("journal a streamed tool loop with the same events as a generated one, the tool starting only after the answer is logged", async () => {
    const streamed = await newContext();
    const model = streamingModel();
    const executed: string[] = [];
    const outcome = await runSession(spec(model, executed), streamed.ctx);
    expect(outcome).toEqual({ ok: true, output: "The echo said hi." });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(executed).toEqual([JSON.stringify({ say: "hi" })]);

    const generated = await newContext();
    await runSession(spec(generatingModel()), generated.ctx);
    const events = await streamed.log.all();
    // Same event types, request hashes, recorded answers and usage: the log does not say how the call was made.
    expect(harnessEvents(events)).toEqual(harnessEvents(await generated.log.all()));
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      "RunRequested",
      "harness.session.started",
      "harness.model.called",
      "harness.model.responded",
      "harness.tool_call.started",
      "harness.tool_call.succeeded",
      "harness.model.called",
      "harness.model.responded",
      "harness.session.completed",
    ]);
    const responded = events.find((e) => e.type === "harness.model.responded");
    expect(responded?.payload).toMatchObject({ usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 } });
  });

  it("replay a finished session's calls from the log with zero model calls", async () => {
    const first = await newContext();
    await runSession(spec(streamingModel()), first.ctx);
    const all = await first.log.all();
    // Everything but the session's end: the loop runs again, answered from the log.
    const replay = await newContext(all.filter((e) => e.type !== "harness.session.completed"));
    const model = refusing();
    const executed: string[] = [];
    const outcome = await runSession(spec(model, executed), replay.ctx);
    expect(outcome).toEqual({ ok: true, output: "The echo said hi." });
    expect(model.doStreamCalls).toHaveLength(0);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(executed).toEqual([]);
    const appended = (await replay.log.all()).slice(all.length - 1).map((e) => e.type);
    expect(appended).toEqual(["harness.session.completed"]);
  });

  it("never record a stream cut by a crash: the resume re-issues that call", async () => {
    let snapshot: RunEvent[] = [];
    const crash = new AbortController();
    const first = await newContext([], { signal: crash.signal });
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "Let me" });
            // The process dies here: what is durable is what the log holds now.
            snapshot = await first.log.all();
            crash.abort(new Error("crashed"));
            controller.error(new Error("connection lost"));
          },
        }),
      }),
    });
    await expect(runSession(spec(model), first.ctx)).rejects.toThrow();
    expect(snapshot.map((e) => e.type)).toEqual(["RunRequested", "harness.session.started", "harness.model.called"]);

    const resumed = await newContext(snapshot);
    const again = streamingModel();
    const outcome = await runSession(spec(again), resumed.ctx);
    expect(outcome).toEqual({ ok: true, output: "The echo said hi." });
    const events = await resumed.log.all();
    // The same call id answered by the re-issued stream, with no second `called`.
    expect(events.filter((e) => e.type === "harness.model.called").map((e) => (e.payload as { callId: string }).callId)).toEqual([
      "s1/model/1",
      "s1/model/2",
    ]);
    expect(again.doStreamCalls).toHaveLength(2);
  });

  it("record a stream that breaks midway as a failure, not an answer, and fail the session with that error", async () => {
    const { log, ctx } = await newContext();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: partsStream([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Par" },
          { type: "error", error: new Error("upstream overloaded") },
        ]),
      }),
    });
    await expect(runSession(spec(model), ctx)).rejects.toThrow("upstream overloaded");
    const types = (await log.all()).map((e) => e.type);
    expect(types).toContain("harness.model.failed");
    expect(types).not.toContain("harness.model.responded");
  });

  it("never record a stream that ends without its finish part", async () => {
    const { log, ctx } = await newContext();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: partsStream([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "x" },
        ]),
      }),
    });
    await expect(runSession(spec(model), ctx)).rejects.toThrow(/finish/);
    expect((await log.all()).map((e) => e.type)).not.toContain("harness.model.responded");
  });

  it("retry a provider 429 and 500 with backoff, each failure journaled", async () => {
    const { log, ctx, sleeps } = await newContext();
    const live = streamingModel();
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        calls += 1;
        const status = calls === 1 ? 429 : calls === 2 ? 500 : 0;
        if (status)
          throw new APICallError({
            message: `status ${status}`,
            url: "http://x",
            requestBodyValues: {},
            statusCode: status,
            isRetryable: true,
          });
        return live.doStream(options);
      },
    });
    const outcome = await runSession(spec(model), ctx);
    expect(outcome.ok).toBe(true);
    const failures = (await log.all()).filter((e) => e.type === "harness.model.failed").map((e) => e.payload);
    expect(failures).toEqual([
      { sessionId: "s1", callId: "s1/model/1", error: expect.objectContaining({ message: "status 429", retriable: true }) },
      { sessionId: "s1", callId: "s1/model/1", error: expect.objectContaining({ message: "status 500", retriable: true }) },
    ]);
    expect(sleeps).toEqual([250, 500]);
  });

  it("honour a provider's Retry-After: a short one is slept in the slice, a long one ends the slice and the resume retries", async () => {
    const rateLimited = (headers: Record<string, string>) =>
      new APICallError({
        message: "rate limited",
        url: "http://x",
        requestBodyValues: {},
        statusCode: 429,
        isRetryable: true,
        responseHeaders: headers,
      });
    const live = streamingModel();
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        calls += 1;
        if (calls === 1) throw rateLimited({ "retry-after-ms": "900" });
        if (calls === 2) throw rateLimited({ "retry-after": "30" });
        return live.doStream(options);
      },
    });
    const first = await newContext();
    const yielded = await runSession(spec(model), first.ctx).catch((e: unknown) => e);
    expect(yielded).toBeInstanceOf(SliceYieldSignal);
    expect((yielded as SliceYieldSignal).wakeAt).toBe(NOW + 30_000);
    expect(first.sleeps).toEqual([900]);
    const logged = await first.log.all();
    expect(
      logged.filter((e) => e.type === "harness.model.failed").map((e) => (e.payload as { error: { retriable: boolean } }).error.retriable),
    ).toEqual([true, true]);

    // The next slice (when the run wakes) makes the third attempt of the same call.
    const resumed = await newContext(logged);
    expect(await runSession(spec(model), resumed.ctx)).toEqual({ ok: true, output: "The echo said hi." });
    expect(calls).toBe(4);
  });

  it("retry an attempt whose stream fails before any part reached the loop: a retryable error part, then a stall", async () => {
    const { log, ctx, sleeps } = await newContext([], { modelTimeoutMs: 40 });
    const live = streamingModel();
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        calls += 1;
        if (calls === 1)
          return {
            stream: partsStream([
              { type: "stream-start", warnings: [] },
              { type: "error", error: Object.assign(new Error("overloaded"), { statusCode: 529, isRetryable: true }) },
            ]),
          };
        if (calls === 2)
          return {
            stream: new ReadableStream<LanguageModelV4StreamPart>({
              start(controller) {
                controller.enqueue({ type: "stream-start", warnings: [] });
              },
            }),
          };
        return live.doStream(options);
      },
    });
    const outcome = await runSession(spec(model), ctx);
    expect(outcome).toEqual({ ok: true, output: "The echo said hi." });
    const events = await log.all();
    const failures = events.filter((e) => e.type === "harness.model.failed").map((e) => e.payload as { callId: string; error: unknown });
    expect(failures).toEqual([
      { sessionId: "s1", callId: "s1/model/1", error: expect.objectContaining({ message: "overloaded", retriable: true }) },
      { sessionId: "s1", callId: "s1/model/1", error: expect.objectContaining({ code: "model_timeout", retriable: true }) },
    ]);
    expect(sleeps).toEqual([250, 500]);
    // One answer for the call, from the third attempt; the log reads as for a generated call.
    const generated = await newContext();
    await runSession(spec(generatingModel()), generated.ctx);
    const answers = (all: readonly RunEvent[]) => harnessEvents(all).filter((e) => e.type !== "harness.model.failed");
    expect(answers(events)).toEqual(answers(await generated.log.all()));
  });

  it("fail a call whose provider hangs with model_timeout after the retries", async () => {
    const { log, ctx } = await newContext([], { modelTimeoutMs: 40 });
    const model = new MockLanguageModelV4({ doStream: () => new Promise<never>(() => {}) });
    const error = await runSession(spec(model), ctx).catch((e: unknown) => e);
    expect(LittleError.is(error) && error.code).toBe("model_timeout");
    const failures = (await log.all()).filter((e) => e.type === "harness.model.failed").map((e) => e.payload as { error: unknown });
    expect(failures.map((f) => f.error)).toEqual([
      expect.objectContaining({ code: "model_timeout", retriable: true }),
      expect.objectContaining({ code: "model_timeout", retriable: true }),
      expect.objectContaining({ code: "model_timeout", retriable: false }),
    ]);
    // A resume of the failed call fails the same way, calling nothing.
    const resumed = await newContext(await log.all(), { modelTimeoutMs: 40 });
    const again = refusing();
    const replayed = await runSession(spec(again), resumed.ctx).catch((e: unknown) => e);
    expect(LittleError.is(replayed) && replayed.code).toBe("model_timeout");
    expect(again.doStreamCalls).toHaveLength(0);
  });

  it("fail a call the provider refuses for good as a model error, live and when replayed from the log", async () => {
    const { log, ctx } = await newContext();
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({ message: "bad request", url: "http://x", requestBodyValues: {}, statusCode: 400, isRetryable: false });
      },
    });
    const live = await runSession(spec(model), ctx).catch((e: unknown) => e);
    expect(toRunFailure(live)?.causeCode).toBe("model_error");
    // The log keeps the failure's name and message; the replay rebuilds it as an AI SDK error,
    // recognised by the SDK's own marker, not by its name.
    const resumed = await newContext(await log.all());
    const again = refusing();
    const replayed = await runSession(spec(again), resumed.ctx).catch((e: unknown) => e);
    expect((replayed as Error).name).toBe("AI_APICallError");
    expect(AISDKError.isInstance(replayed)).toBe(true);
    expect(toRunFailure(replayed)?.causeCode).toBe("model_error");
    expect(again.doStreamCalls).toHaveLength(0);
  });

  it("fail a stream that stalls midway with model_timeout", async () => {
    const { log, ctx } = await newContext([], { modelTimeoutMs: 40 });
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "and then" });
          },
        }),
      }),
    });
    const error = await runSession(spec(model), ctx).catch((e: unknown) => e);
    expect(LittleError.is(error) && error.code).toBe("model_timeout");
    const failed = (await log.all()).filter((e) => e.type === "harness.model.failed");
    expect(failed.map((e) => (e.payload as { error: { code?: string } }).error.code)).toEqual(["model_timeout"]);
  });

  it("the offline model streams the answer it would have generated, recorded identically", async () => {
    const offline = () => new OfflineLanguageModel({ modelId: "gpt-4o-mini" });
    const viaStream = await newContext();
    await runSession({ ...spec(offline()), tools: undefined }, viaStream.ctx);
    const viaGenerate = await newContext();
    const generateOnly = new MockLanguageModelV4({ doGenerate: (options) => offline().doGenerate(options) });
    await runSession({ ...spec(generateOnly), tools: undefined }, viaGenerate.ctx);
    expect(harnessEvents(await viaStream.log.all())).toEqual(harnessEvents(await viaGenerate.log.all()));
  });
});
