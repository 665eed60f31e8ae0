/**
 * A provider (or a proxy) that answers a streamed request with a plain JSON body: through the real
 * `@ai-sdk/openai` Responses model, with `fetch` answering as such a proxy does. Without the check
 * the provider's event-stream parser finds nothing and the call reads as an empty answer.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { toRunFailure } from "../../src/engine/to-run-failure.ts";
import type { HarnessContext } from "../../src/harness/harness-context.ts";
import { Journal } from "../../src/harness/journal.ts";
import { runSession, type SessionSpec } from "../../src/harness/run-session.ts";
import { workerSessionSpec } from "./support/worker-session-spec.ts";

const NOW = 1_800_000_000_000;

/** A complete, non-streamed Responses API answer (TOOLCHAIN.md, "Real providers, locally"). */
const JSON_ANSWER = {
  id: "resp_1",
  object: "response",
  created_at: 1_800_000_000,
  status: "completed",
  model: "gpt-test",
  incomplete_details: null,
  output: [
    {
      type: "message",
      id: "msg_1",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: "hello", annotations: [] }],
    },
  ],
  usage: {
    input_tokens: 3,
    output_tokens: 1,
    total_tokens: 4,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  },
};

const SSE = [
  { type: "response.created", response: { ...JSON_ANSWER, status: "in_progress", output: [] } },
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] },
  },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "hello" },
  { type: "response.output_item.done", output_index: 0, item: JSON_ANSWER.output[0] },
  { type: "response.completed", response: JSON_ANSWER },
]
  .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
  .join("");

/** A Responses model whose every request is answered by `answers` in turn. */
function modelAnswering(answers: ("json" | "sse")[]) {
  const requests: unknown[] = [];
  const openai = createOpenAI({
    apiKey: "test",
    baseURL: "http://proxy.test/v1",
    fetch: async (_url, init) => {
      requests.push(JSON.parse(String(init?.body)));
      const kind = answers[Math.min(requests.length - 1, answers.length - 1)];
      return kind === "json"
        ? new Response(JSON.stringify(JSON_ANSWER), { headers: { "content-type": "application/json" } })
        : new Response(SSE, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { model: openai.responses("gpt-test"), requests };
}

async function context() {
  const log = new MemoryEventLog("run_protocol", { now: () => NOW });
  await log.append([{ type: "RunRequested", payload: { workflowId: "w", input: {}, trigger: { kind: "programmatic" }, tenant: "acme" } }]);
  const ctx: HarnessContext = {
    runId: log.runId,
    log,
    journal: new Journal(await log.all()),
    clock: { now: () => NOW },
    deadline: Number.POSITIVE_INFINITY,
    sleep: async () => {},
  };
  return { log, ctx };
}

function spec(model: SessionSpec["model"]): SessionSpec {
  return workerSessionSpec(model, { slot: { id: "m", providerId: "openai.responses", modelId: "gpt-test", offline: false } });
}

describe("a streamed call answered with a plain JSON body", () => {
  it("is a model_protocol_error, retried like a 5xx: a proxy that recovers gives the real answer", async () => {
    const { log, ctx } = await context();
    const { model, requests } = modelAnswering(["json", "sse"]);
    const outcome = await runSession(spec(model), ctx);
    expect(outcome).toEqual({ ok: true, output: "hello" });
    expect((requests[0] as { stream?: boolean }).stream).toBe(true);
    const failures = (await log.all()).filter((e) => e.type === "harness.model.failed").map((e) => e.payload);
    expect(failures).toEqual([
      {
        sessionId: "s1",
        callId: "s1/model/1",
        error: expect.objectContaining({
          code: "model_protocol_error",
          retriable: true,
          message: expect.stringContaining("plain JSON body"),
        }),
      },
    ]);
  });

  it("after the last attempt the run fails with cause model_protocol_error, never an empty answer", async () => {
    const { log, ctx } = await context();
    const { model, requests } = modelAnswering(["json"]);
    const error = await runSession(spec(model), ctx).then(
      () => null,
      (e: unknown) => e,
    );
    expect(requests).toHaveLength(3);
    expect(toRunFailure(error)?.causeCode).toBe("model_protocol_error");
    expect((await log.all()).map((e) => e.type)).not.toContain("harness.model.responded");
  });
});
