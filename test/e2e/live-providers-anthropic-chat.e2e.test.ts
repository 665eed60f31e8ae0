/**
 * The live provider path over HTTP for the two other wire protocols (issue 14): a `wrangler dev`
 * deployment that reconfigures the seed example's slots (`LITTLE_MODEL_GPT_5=anthropic:…` for the
 * planner, `LITTLE_MODEL_GPT_4O_MINI=openai-chat:…` for the worker step) against the fake provider.
 * Sessions stream, so the Worker sends only streaming requests; the non-streaming form of each
 * protocol is checked at the harness level in Node below (`generateText` through the durable model
 * against the same fake server: journaled, and replayed with zero requests).
 */
import { generateText, isStepCount, jsonSchema, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { PROVIDERS } from "../../src/adapters/models/provider-registry.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { durableModel } from "../../src/harness/durable-model.ts";
import { type HarnessContext, SessionCursor } from "../../src/harness/harness-context.ts";
import { Journal } from "../../src/harness/journal.ts";
import { providerLwirSchema } from "../../src/lwir/lwir-json-schema.ts";
import { client, INPUT, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { type FakeProvider, type FakeRequest, startFakeProvider } from "./support/fake-provider.ts";
import { bashTurn, ofType, replayFinishedRun, submitTurn } from "./support/live-provider-runs.ts";
import { sleep, startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const PLANNER_MODEL = "claude-sonnet-4-5";
const WORKER_MODEL = "gpt-4o-mini";
let fake: FakeProvider;
let dev: WranglerDev;
let api: ReturnType<typeof client>;
let vars: Record<string, string>;

beforeAll(async () => {
  fake = await startFakeProvider();
  vars = {
    LITTLE_MODELS: "live",
    LITTLE_MODEL_GPT_5: `anthropic:${PLANNER_MODEL}`,
    LITTLE_MODEL_GPT_4O_MINI: `openai-chat:${WORKER_MODEL}`,
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: `${fake.url}/v1`,
    LITTLE_MODEL_TIMEOUT_MS: "1500",
  };
  dev = await startWranglerDev({ vars });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
  await fake?.close();
});

describe("live providers: Anthropic Messages (planner) and Chat Completions (worker) under wrangler dev", () => {
  it("plans over Anthropic and answers over Chat Completions, streamed, with 429/500 retried and a zero-request replay", async () => {
    const since = fake.requests.length;
    fake.enqueue(PLANNER_MODEL, { kind: "status", status: 429, message: "rate limited" }, bashTurn, submitTurn);
    fake.enqueue(
      WORKER_MODEL,
      { kind: "status", status: 500 },
      {
        kind: "json",
        value: { summary: "Dashboard 500s since the upgrade.", severity: "medium" },
        usage: { input: 310, output: 22 },
      },
    );
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: "T-anthropic" } } });
    expect(r.status, r.text).toBe(202);
    const { run } = await api.pollUntilEnded(runOf(r).runId, { timeoutMs: 40_000 });
    expect(run.status, JSON.stringify(run.cause)).toBe("completed");
    expect(run.output).toEqual({ summary: "Dashboard 500s since the upgrade.", severity: "medium" });
    const events = await api.events(run.runId);

    // Anthropic: streamed Messages requests with the key header, the system prompt, both tools.
    const planner = fake.requests.slice(since).filter((q) => q.model === PLANNER_MODEL);
    expect(planner).toHaveLength(3);
    for (const q of planner) {
      expect(q.path).toBe("/v1/messages");
      expect(q.stream).toBe(true);
      expect(q.headers["x-api-key"]).toBe("sk-ant-test");
    }
    const first = planner[1] as FakeRequest;
    expect(JSON.stringify(first.body.system)).toContain("plan");
    const tools = first.body.tools as { name: string; input_schema: Record<string, unknown> }[];
    expect(tools.map((t) => t.name).sort()).toEqual(["bash", "submit_lwir"]);
    const submitSchema = tools.find((t) => t.name === "submit_lwir")?.input_schema;
    expect(submitSchema).toMatchObject({ type: "object", required: ["lwir"] });
    expect(submitSchema?.properties).toEqual({ lwir: providerLwirSchema() });
    expect(submitSchema).toHaveProperty("properties.lwir.properties.steps");
    // Multi-turn: the bash tool_use and its tool_result come back on the second turn.
    const messages = JSON.stringify((planner[2] as FakeRequest).body.messages);
    expect(messages).toContain('"type":"tool_use"');
    expect(messages).toContain('"type":"tool_result"');
    expect(messages).toContain("plan-task.json");

    // Chat Completions: streamed with usage, structured output as a json_schema response format.
    const worker = fake.requests.slice(since).filter((q) => q.model === WORKER_MODEL);
    expect(worker).toHaveLength(2);
    const chat = worker[1] as FakeRequest;
    expect(chat.path).toBe("/v1/chat/completions");
    expect(chat.stream).toBe(true);
    expect(chat.body.stream_options).toEqual({ include_usage: true });
    expect(chat.body.response_format?.type).toBe("json_schema");
    expect(Object.keys(chat.body.response_format?.json_schema?.schema?.properties ?? {}).sort()).toEqual(["severity", "summary"]);

    // Retries journaled; usage and the provider ids as configured.
    expect(ofType(events, "harness.model.failed").map((e) => (e.payload.error as { retriable: boolean }).retriable)).toEqual([true, true]);
    const responded = ofType(events, "harness.model.responded");
    expect(responded.map((e) => (e.payload.model as { providerId: string }).providerId)).toEqual([
      "anthropic.messages",
      "anthropic.messages",
      "openai.chat",
    ]);
    expect(responded.map((e) => e.payload.usage)).toEqual([
      expect.objectContaining({ inputTokens: 900, outputTokens: 40 }),
      expect.objectContaining({ inputTokens: 1_400, outputTokens: 260 }),
      expect.objectContaining({ inputTokens: 310, outputTokens: 22 }),
    ]);

    // The finished run replays in Node with the deployment's overrides, calling nobody.
    const before = fake.requests.length;
    const replay = await replayFinishedRun(events, { definition: summarizeTicket, tools: {} }, vars);
    expect(replay.appended).toEqual(replay.expected);
    expect(fake.requests.length - before).toBe(0);
  });
});

describe("a crash mid-stream under wrangler dev", () => {
  it("SIGKILL while the worker's answer streams: after a restart exactly that call is issued again, the planner is not", async () => {
    const since = fake.requests.length;
    fake.enqueue(PLANNER_MODEL, bashTurn, submitTurn);
    // The first answer stops after its opening chunks; the process dies before it would time out.
    fake.enqueue(WORKER_MODEL, { kind: "stall" }, { kind: "json", value: { summary: "Back after the crash.", severity: "low" } });
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: "T-crash-stream" } } });
    expect(r.status, r.text).toBe(202);
    const { runId } = runOf(r);
    for (const until = Date.now() + 20_000; !fake.requests.slice(since).some((q) => q.model === WORKER_MODEL); ) {
      if (Date.now() > until) throw new Error("the worker's request never arrived");
      await sleep(10);
    }
    await dev.kill9();
    const atCrash = fake.requests.length;
    await dev.restart();
    const { run } = await api.pollUntilEnded(runId, { timeoutMs: 40_000 });
    expect(run.status, JSON.stringify(run.cause)).toBe("completed");
    expect(run.output).toEqual({ summary: "Back after the crash.", severity: "low" });

    const after = fake.requests.slice(atCrash);
    expect(after.map((q) => q.model)).toEqual([WORKER_MODEL]);
    const events = await api.events(runId);
    const workerCalls = ofType(events, "harness.model.called").filter((e) => String(e.payload.sessionId).startsWith("worker:"));
    expect(workerCalls).toHaveLength(1);
    const callId = workerCalls[0]?.payload.callId;
    // The cut stream left no trace but its `called`: no failure, one answer, from the re-issued request.
    expect(ofType(events, "harness.model.failed").filter((e) => e.payload.callId === callId)).toEqual([]);
    expect(ofType(events, "harness.model.responded").filter((e) => e.payload.callId === callId)).toHaveLength(1);
  });
});

describe("non-streaming requests, journaled at the harness level in Node", () => {
  const cases = [
    { protocol: "responses", provider: "openai", path: "/v1/responses", model: "ns-responses" },
    { protocol: "chat", provider: "openai-chat", path: "/v1/chat/completions", model: "ns-chat" },
    { protocol: "anthropic", provider: "anthropic", path: "/v1/messages", model: "ns-anthropic" },
  ] as const;

  for (const c of cases) {
    it(`${c.protocol}: a generated tool loop is journaled and replays with zero requests`, async () => {
      const entry = PROVIDERS[c.provider];
      if (!entry) throw new Error(`no provider ${c.provider}`);
      fake.enqueue(
        c.model,
        { kind: "status", status: 429 },
        { kind: "answer", text: "Checking.", toolCalls: [{ name: "lookup", arguments: { id: "T-1" } }], usage: { input: 50, output: 9 } },
        { kind: "answer", text: "Ticket T-1 is open.", usage: { input: 70, output: 7 } },
      );
      const log = new MemoryEventLog(`run_ns_${c.protocol}`, { now: () => Date.now() });
      const looked: string[] = [];
      const loop = async (ctx: HarnessContext) =>
        generateText({
          model: durableModel(entry.build(vars, c.model), ctx, new SessionCursor("s"), {
            id: "slot",
            providerId: entry.providerId,
            modelId: c.model,
            offline: false,
          }),
          prompt: "What is the state of ticket T-1?",
          tools: {
            lookup: tool({
              inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
              execute: async ({ id }) => {
                looked.push(id);
                return { id, state: "open" };
              },
            }),
          },
          stopWhen: isStepCount(3),
          maxRetries: 0,
        });
      const context = async (): Promise<HarnessContext> => ({
        runId: log.runId,
        log,
        journal: new Journal(await log.all()),
        clock: { now: () => Date.now() },
        deadline: Number.POSITIVE_INFINITY,
        sleep: async () => {},
      });
      const since = fake.requests.length;
      const live = await loop(await context());
      expect(live.text).toBe("Ticket T-1 is open.");
      const sent = fake.requests.slice(since);
      expect(sent.map((q) => [q.path, q.stream])).toEqual([
        [c.path, false],
        [c.path, false],
        [c.path, false],
      ]);
      const types = (await log.all()).map((e) => e.type);
      expect(types).toEqual([
        "harness.model.called",
        "harness.model.failed",
        "harness.model.responded",
        "harness.model.called",
        "harness.model.responded",
      ]);

      const before = fake.requests.length;
      const replayed = await loop(await context());
      expect(replayed.text).toBe(live.text);
      expect(fake.requests.length - before).toBe(0);
      expect((await log.all()).length).toBe(types.length);
    });
  }
});
