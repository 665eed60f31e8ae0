/**
 * Tool-call arguments that do not parse: the model's next turn shows what it sent, not `{}`.
 * Through the real `@ai-sdk/openai` Responses model with a fake fetch speaking the SSE form.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import type { HarnessContext } from "../../src/harness/harness-context.ts";
import { Journal } from "../../src/harness/journal.ts";
import { runSession, type SessionSpec } from "../../src/harness/run-session.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import { echoTool, workerSessionSpec } from "./support/worker-session-spec.ts";

const CUT = '{"say": "hel';
const usage = {
  input_tokens: 3,
  output_tokens: 1,
  total_tokens: 4,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

function sse(output: unknown[]): string {
  const response = { id: "r", object: "response", created_at: 1, status: "completed", model: "m", incomplete_details: null, output, usage };
  return [
    { type: "response.created", response: { ...response, status: "in_progress", output: [] } },
    ...output.map((item, i) => ({ type: "response.output_item.done", output_index: i, item })),
    { type: "response.completed", response },
  ]
    .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
    .join("");
}

/** Turn 1 calls echo with arguments cut off mid-string; turn 2 answers text. */
function model(bodies: { input: unknown[] }[]) {
  return createOpenAI({
    apiKey: "t",
    baseURL: "http://p.test/v1",
    fetch: async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      const output =
        bodies.length === 1
          ? [{ type: "function_call", id: "fc1", call_id: "call_1", name: "echo", arguments: CUT, status: "completed" }]
          : [
              {
                type: "message",
                id: "m2",
                status: "completed",
                role: "assistant",
                content: [{ type: "output_text", text: "done", annotations: [] }],
              },
            ];
      return new Response(sse(output), { headers: { "content-type": "text/event-stream" } });
    },
  }).responses("m");
}

async function context(log: EventLog): Promise<HarnessContext> {
  return {
    runId: log.runId,
    log,
    journal: new Journal(await log.all()),
    clock: { now: () => 1 },
    deadline: Number.POSITIVE_INFINITY,
    sleep: async () => {},
  };
}

function spec(m: SessionSpec["model"], executed: unknown[]): SessionSpec {
  return workerSessionSpec(m, {
    system: "s",
    prompt: "p",
    tools: { echo: echoTool(executed) },
    stopWhen: ({ steps }) => steps.length >= 3,
  });
}

describe("tool-call arguments that do not parse", () => {
  it("are shown back to the model as it sent them (not {}), with the tool error, and replay to the same request", async () => {
    const log = new MemoryEventLog("run_cut", { now: () => 1 });
    await log.append([{ type: "RunRequested", payload: { workflowId: "w", input: {}, trigger: { kind: "programmatic" }, tenant: "a" } }]);
    const bodies: { input: unknown[] }[] = [];
    const executed: unknown[] = [];
    const first = await runSession(spec(model(bodies), executed), await context(log));
    expect(first.ok).toBe(true);
    expect(bodies).toHaveLength(2);
    expect(executed).toEqual([]);
    const history = bodies[1]?.input as { type?: string; arguments?: string; output?: string }[];
    const call = history.find((item) => item.type === "function_call");
    expect(JSON.parse(call?.arguments ?? "null")).toEqual({ unparsedArguments: CUT });
    expect(history.find((item) => item.type === "function_call_output")?.output).toContain("InvalidToolInputError");
    // A replay builds the same requests from the journal: no call, no request-hash mismatch.
    const replayed: { input: unknown[] }[] = [];
    const again = await runSession(spec(model(replayed), executed), await context(log));
    expect(again).toEqual(first);
    expect(replayed).toEqual([]);
  });
});
