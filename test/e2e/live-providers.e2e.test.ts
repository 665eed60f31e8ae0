/**
 * The live provider path over HTTP (issue 14): a real `wrangler dev` with `LITTLE_MODELS=live`
 * and `OPENAI_BASE_URL` pointing at a fake OpenAI Responses server on 127.0.0.1. The shipped
 * example `support.summarize-ticket` runs with a scripted planner (bash, then `submit_lwir`) and a
 * worker answering structured output, all streamed. Asserted: the request shapes, multi-turn tool
 * calls, usage in the events, 429/500 retried with backoff and journaled, a hang failing with
 * `model_timeout`, garbage answers shown to the model or failing the run with a named cause, and a
 * deep replay of the finished run in Node making zero requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { providerLwirSchema } from "../../src/lwir/lwir-json-schema.ts";
import { client, INPUT, type RunEvent, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { type FakeProvider, type FakeRequest, startFakeProvider } from "./support/fake-provider.ts";
import { bashTurn, ofType, replayFinishedRun, submitTurn } from "./support/live-provider-runs.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const TIMEOUT_MS = 1_500;
let fake: FakeProvider;
let dev: WranglerDev;
let api: ReturnType<typeof client>;
let vars: Record<string, string>;

beforeAll(async () => {
  fake = await startFakeProvider();
  vars = {
    LITTLE_MODELS: "live",
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: `${fake.url}/v1`,
    LITTLE_MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
  };
  dev = await startWranglerDev({ vars });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
  await fake?.close();
});

/** Starts a run of the seed example and waits for its end; never a 500, never stuck. */
async function runSeed(ticketId: string) {
  const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId } } });
  expect(r.status, r.text).toBe(202);
  const { runId } = runOf(r);
  const { run } = await api.pollUntilEnded(runId, { timeoutMs: 40_000 });
  return { run, events: await api.events(runId), runId };
}

const requestsFor = (model: string, since: number) => fake.requests.slice(since).filter((r) => r.model === model);
const toolNamed = (request: FakeRequest, name: string) =>
  (request.body.tools as { name: string; type: string; parameters: Record<string, unknown> }[]).find((t) => t.name === name);

describe("live providers: OpenAI Responses under wrangler dev", () => {
  let finished: { events: RunEvent[] } | undefined;

  it("plans with bash then submit_lwir and answers the worker step with structured output, streamed, 429/500 retried", async () => {
    const since = fake.requests.length;
    // The 429 asks for 800 ms (OpenAI's retry-after-ms): longer than the first backoff's 250 ms.
    fake.enqueue(
      "gpt-5",
      { kind: "status", status: 429, message: "slow down", headers: { "retry-after-ms": "800" } },
      bashTurn,
      submitTurn,
    );
    fake.enqueue(
      "gpt-4o-mini",
      { kind: "status", status: 500 },
      {
        kind: "json",
        value: { summary: "The dashboard fails with a 500 since the upgrade.", severity: "high" },
        usage: { input: 300, output: 25 },
      },
    );
    const { run, events } = await runSeed("T-live");
    expect(run.status, JSON.stringify(run.cause)).toBe("completed");
    expect(run.output).toEqual({ summary: "The dashboard fails with a 500 since the upgrade.", severity: "high" });
    expect(fake.pending()).toEqual({});

    // The request shape. Planner: streamed, system prompt as a developer message, both tools.
    const planner = requestsFor("gpt-5", since);
    expect(planner).toHaveLength(3);
    for (const request of planner) {
      expect(request.path).toBe("/v1/responses");
      expect(request.stream).toBe(true);
      expect(request.headers.authorization).toBe("Bearer sk-test");
    }
    const first = planner[1] as FakeRequest;
    expect(first.body.input[0].role).toBe("developer");
    const submit = toolNamed(first, "submit_lwir");
    expect(submit?.type).toBe("function");
    // The parameter schema is the full LWIR JSON Schema, in the form providers accept.
    expect(submit?.parameters).toMatchObject({ type: "object", required: ["lwir"] });
    expect(submit?.parameters.properties).toEqual({ lwir: providerLwirSchema() });
    expect(submit?.parameters).toHaveProperty("properties.lwir.properties.steps");
    expect(toolNamed(first, "bash")?.parameters).toMatchObject({ properties: { command: { type: "string" } } });
    // Multi-turn: the second turn carries the bash call and its output back.
    const second = planner[2] as FakeRequest;
    const items = second.body.input as { type?: string; name?: string; call_id?: string; output?: unknown }[];
    const bashCall = items.find((i) => i.type === "function_call" && i.name === "bash");
    expect(bashCall).toBeDefined();
    const bashOutput = items.find((i) => i.type === "function_call_output" && i.call_id === bashCall?.call_id);
    expect(JSON.stringify(bashOutput?.output)).toContain("plan-task.json");

    // Worker: structured output as a JSON schema with the step's output fields.
    const worker = requestsFor("gpt-4o-mini", since);
    expect(worker).toHaveLength(2);
    const format = (worker[1] as FakeRequest).body.text?.format;
    expect(format?.type).toBe("json_schema");
    expect(Object.keys(format?.schema?.properties ?? {}).sort()).toEqual(["severity", "summary"]);
    expect((worker[1] as FakeRequest).stream).toBe(true);

    // 429 and 500 retried with backoff, each failure journaled, then answered on the same call id.
    const failed = ofType(events, "harness.model.failed");
    expect(failed.map((e) => e.payload.error)).toEqual([
      expect.objectContaining({ retriable: true, message: expect.stringContaining("slow down") }),
      expect.objectContaining({ retriable: true }),
    ]);
    for (const [model, requests, backoff] of [
      ["gpt-5", planner, 800],
      ["gpt-4o-mini", worker, 250],
    ] as const) {
      const gap = (requests[1] as FakeRequest).at - (requests[0] as FakeRequest).at;
      expect(gap, `${model} retried after its backoff`).toBeGreaterThanOrEqual(backoff - 10);
    }
    const failedCalls = failed.map((e) => e.payload.callId);
    for (const callId of failedCalls)
      expect(
        ofType(events, "harness.model.responded").some((e) => e.payload.callId === callId),
        String(callId),
      ).toBe(true);

    // Usage per call, as the provider reported it, and summed on the run.
    const responded = ofType(events, "harness.model.responded");
    expect(responded.map((e) => e.payload.usage)).toEqual([
      expect.objectContaining({ inputTokens: 900, outputTokens: 40 }),
      expect.objectContaining({ inputTokens: 1_400, outputTokens: 260 }),
      expect.objectContaining({ inputTokens: 300, outputTokens: 25 }),
    ]);
    expect(responded.every((e) => (e.payload.model as { offline: boolean }).offline === false)).toBe(true);
    expect(ofType(events, "RunCompleted")[0]?.payload.usage).toMatchObject({ inputTokens: 2_600, outputTokens: 325 });
    finished = { events };
  });

  it("replays the finished run in Node, deep, with zero requests to the provider", async () => {
    expect(finished, "the previous test's run").toBeDefined();
    const before = fake.requests.length;
    const replay = await replayFinishedRun(finished?.events ?? [], { definition: summarizeTicket, tools: {} }, vars);
    expect(replay.appended).toEqual(replay.expected);
    expect(replay.sandboxUses).toBe(0);
    expect(fake.requests.length - before).toBe(0);
  });

  it("a provider that hangs fails the run with model_timeout after journaled retries", async () => {
    const since = fake.requests.length;
    fake.enqueue("gpt-5", bashTurn, submitTurn);
    fake.enqueue("gpt-4o-mini", { kind: "hang" }, { kind: "hang" }, { kind: "stall" });
    const { run, events } = await runSeed("T-hang");
    expect(run.status).toBe("failed");
    expect(run.cause?.code).toBe("model_timeout");
    expect(requestsFor("gpt-4o-mini", since)).toHaveLength(3);
    const errors = ofType(events, "harness.model.failed").map((e) => e.payload.error);
    expect(errors).toEqual([
      expect.objectContaining({ code: "model_timeout", retriable: true }),
      expect.objectContaining({ code: "model_timeout", retriable: true }),
      expect.objectContaining({ code: "model_timeout", retriable: false }),
    ]);
    expect(ofType(events, "RunFailed")[0]?.payload).toMatchObject({ causeCode: "model_timeout" });
  });

  it("garbage tool calls are shown to the model; a body that is not JSON fails the run with a named cause", async () => {
    const since = fake.requests.length;
    fake.enqueue(
      "gpt-5",
      { kind: "answer", toolCalls: [{ name: "rm_rf", arguments: { path: "/" } }] },
      { kind: "answer", toolCalls: [{ name: "bash", arguments: '{"command": "ls' }] },
      submitTurn,
    );
    fake.enqueue("gpt-4o-mini", { kind: "garbage", body: "<html>502 Bad Gateway</html>" });
    const { run, events } = await runSeed("T-garbage");
    const planner = requestsFor("gpt-5", since);
    expect(planner).toHaveLength(3);
    // Each bad call comes back to the model as a tool output naming what was wrong.
    const outputs = (request: FakeRequest) =>
      JSON.stringify((request.body.input as { type?: string }[]).filter((i) => i.type === "function_call_output"));
    expect(outputs(planner[1] as FakeRequest)).toMatch(/rm_rf/);
    expect(outputs(planner[2] as FakeRequest)).toMatch(/Invalid input for tool bash|JSON/i);
    // The planner recovered; the worker's garbage ends the run with a cause, not a 500 or a stuck run.
    expect(ofType(events, "harness.session.completed").length).toBeGreaterThanOrEqual(1);
    expect(run.status).toBe("failed");
    expect(run.cause?.code).toBe("model_error");
    expect(ofType(events, "harness.model.failed").length).toBeGreaterThanOrEqual(1);
  });
});
