/**
 * A fake model provider for tests: a Node HTTP server on 127.0.0.1 (a free port) that speaks the
 * three wire protocols the Worker's providers use, streaming (SSE) and not:
 *
 * - the OpenAI Responses API, `POST /v1/responses` (`@ai-sdk/openai`'s default);
 * - Chat Completions, `POST /v1/chat/completions` (`openai.chat`, `@ai-sdk/openai-compatible`);
 * - the Anthropic Messages API, `POST /v1/messages` (`@ai-sdk/anthropic`).
 *
 * It answers scripted turns (a queue per model name, or a function of the request), records every
 * request (so tests assert the request shape), and can answer a fault instead: an HTTP error
 * (429, 500), a hang (never answers until the client gives up), a stall midway through a stream,
 * or garbage (a body that is not JSON, a call to a tool that does not exist, arguments that are
 * not JSON). What a turn means is protocol-neutral; each protocol's encoder writes it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Protocol = "responses" | "chat" | "anthropic";

/** A tool call in a scripted turn; `arguments` as a string is sent as is (garbage allowed). */
export type FakeToolCall = { readonly name: string; readonly arguments: unknown; readonly id?: string };

export type FakeUsage = { readonly input: number; readonly output: number };

/**
 * Streaming only: the text in exactly these chunks (they must join to the turn's text), one every
 * `delayMs`; the time each chunk was written is recorded in the request's `chunkSentAt`.
 */
export type FakePacing = { readonly chunks: readonly string[]; readonly delayMs: number };

/** What the fake answers to one request. */
export type FakeTurn =
  /** Text (and/or tool calls): a normal answer. */
  | {
      readonly kind: "answer";
      readonly text?: string;
      readonly toolCalls?: readonly FakeToolCall[];
      readonly usage?: FakeUsage;
      readonly paced?: FakePacing;
    }
  /** A structured answer: JSON text, or Anthropic's `json` tool when the request offers it. */
  | { readonly kind: "json"; readonly value: unknown; readonly usage?: FakeUsage; readonly paced?: FakePacing }
  /** An HTTP error status with a provider-style JSON error body (and headers such as `retry-after-ms`). */
  | { readonly kind: "status"; readonly status: number; readonly message?: string; readonly headers?: Readonly<Record<string, string>> }
  /** No answer at all: headers are never sent. */
  | { readonly kind: "hang" }
  /** Streaming only: the headers and a first text delta, then nothing. */
  | { readonly kind: "stall" }
  /** A 200 whose body is the given text (not JSON, not SSE). */
  | { readonly kind: "garbage"; readonly body: string };

/** One request as the fake saw it. */
export type FakeRequest = {
  readonly protocol: Protocol;
  readonly path: string;
  readonly model: string;
  readonly stream: boolean;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  // biome-ignore lint/suspicious/noExplicitAny: the request body is whatever the client sent; tests read into it.
  readonly body: any;
  /** 0-based index among the requests for this model. */
  readonly index: number;
  /** When it arrived (epoch ms): backoff between retries shows in these. */
  readonly at: number;
  /** For a paced turn: when each text chunk was written (epoch ms). */
  readonly chunkSentAt: number[];
};

export type FakeScript = (request: FakeRequest) => FakeTurn | undefined;

/** A queued turn: fixed, or computed from the request it answers (e.g. an LWIR built from the task). */
export type QueuedTurn = FakeTurn | ((request: FakeRequest) => FakeTurn);

export type FakeProvider = {
  /** `http://127.0.0.1:<port>` (no trailing slash); the APIs live under `/v1`. */
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly requests: FakeRequest[];
  /** Appends turns to a model's queue (answered first in, first out). */
  enqueue(model: string, ...turns: QueuedTurn[]): void;
  /** Answers requests the queues don't cover (default: a 500 saying no turn was scripted). */
  fallback(script: FakeScript): void;
  /** Turns still queued, by model. */
  pending(): Record<string, number>;
  close(): Promise<void>;
};

const PATHS: Readonly<Record<string, Protocol>> = {
  "/v1/responses": "responses",
  "/v1/chat/completions": "chat",
  "/v1/messages": "anthropic",
};

const DEFAULT_USAGE: FakeUsage = { input: 120, output: 30 };

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: FakeRequest[] = [];
  const queues = new Map<string, QueuedTurn[]>();
  const perModel = new Map<string, number>();
  const open = new Set<ServerResponse>();
  let fallback: FakeScript = () => undefined;

  const server: Server = createServer(async (req, res) => {
    open.add(res);
    res.once("close", () => open.delete(res));
    const protocol = req.method === "POST" ? PATHS[(req.url ?? "").split("?")[0] ?? ""] : undefined;
    if (!protocol) return sendJson(res, 404, { error: { message: `no such route: ${req.method} ${req.url}` } });
    const raw = await readBody(req);
    // biome-ignore lint/suspicious/noExplicitAny: parsed client JSON.
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendJson(res, 400, { error: { message: "request body is not JSON" } });
    }
    const model = String(body?.model ?? "");
    const index = perModel.get(model) ?? 0;
    perModel.set(model, index + 1);
    const request: FakeRequest = {
      protocol,
      path: req.url ?? "",
      model,
      stream: body?.stream === true,
      headers: req.headers,
      body,
      index,
      at: Date.now(),
      chunkSentAt: [],
    };
    requests.push(request);
    const queued = queues.get(model)?.shift();
    const turn = typeof queued === "function" ? queued(request) : (queued ?? fallback(request));
    if (!turn) return sendError(res, protocol, 500, `the fake provider has no turn scripted for model ${model} (request ${index})`);
    answer(res, request, turn);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    enqueue(model, ...turns) {
      queues.set(model, [...(queues.get(model) ?? []), ...turns]);
    },
    fallback(script) {
      fallback = script;
    },
    pending() {
      return Object.fromEntries([...queues].filter(([, q]) => q.length > 0).map(([m, q]) => [m, q.length]));
    },
    async close() {
      for (const res of open) res.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function answer(res: ServerResponse, request: FakeRequest, turn: FakeTurn): void {
  switch (turn.kind) {
    case "status":
      sendError(res, request.protocol, turn.status, turn.message ?? `scripted status ${turn.status}`, turn.headers);
      return;
    case "hang":
      return; // the socket stays open until the client gives up (or close() destroys it)
    case "garbage":
      res.writeHead(200, { "content-type": request.stream ? "text/event-stream" : "application/json" });
      res.end(turn.body);
      return;
    case "stall": {
      const events = encodeStream(request, { kind: "answer", text: "Thinking about it" });
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      // The opening events and the first text delta, then silence.
      for (const event of events.slice(0, request.protocol === "chat" ? 1 : 3)) res.write(event);
      return;
    }
    default:
      if (request.stream && turn.paced) void writePaced(res, request, turn, turn.paced);
      else if (request.stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const event of encodeStream(request, turn)) res.write(event);
        res.end();
      } else sendJson(res, 200, encodeBody(request, turn));
  }
}

/** Writes a streamed answer with its text chunks `delayMs` apart, recording when each was written. */
async function writePaced(
  res: ServerResponse,
  request: FakeRequest,
  turn: Extract<FakeTurn, { kind: "answer" | "json" }>,
  paced: FakePacing,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of encodeStream(request, turn)) {
    const isDelta = /"type":"(response\.output_text\.delta|content_block_delta)"|"delta":\{"content"/.test(event);
    if (isDelta) {
      await new Promise((done) => setTimeout(done, paced.delayMs));
      if (res.destroyed) return;
      request.chunkSentAt.push(Date.now());
    }
    res.write(event);
  }
  res.end();
}

/** The answer as protocol-neutral parts: text, then tool calls (ids filled in). */
function partsOf(request: FakeRequest, turn: Extract<FakeTurn, { kind: "answer" | "json" }>) {
  const usage = turn.usage ?? DEFAULT_USAGE;
  if (turn.kind === "json") {
    const offersJsonTool =
      request.protocol === "anthropic" &&
      Array.isArray(request.body?.tools) &&
      request.body.tools.some((t: { name?: string }) => t.name === "json");
    return offersJsonTool
      ? { text: undefined, calls: [{ name: "json", arguments: turn.value, id: `toolu_json_${request.index}` }], usage }
      : { text: JSON.stringify(turn.value), calls: [], usage };
  }
  const calls = (turn.toolCalls ?? []).map((c, i) => ({ ...c, id: c.id ?? `call_${request.model}_${request.index}_${i}` }));
  return { text: turn.text, calls, usage };
}

const argumentsText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function encodeBody(request: FakeRequest, turn: Extract<FakeTurn, { kind: "answer" | "json" }>): unknown {
  const { text, calls, usage } = partsOf(request, turn);
  const id = `resp_${request.model}_${request.index}`;
  switch (request.protocol) {
    case "responses":
      return {
        id,
        object: "response",
        created_at: 1_800_000_000,
        status: "completed",
        model: request.model,
        incomplete_details: null,
        output: [
          ...(text !== undefined
            ? [
                {
                  type: "message",
                  id: `msg_${id}`,
                  status: "completed",
                  role: "assistant",
                  content: [{ type: "output_text", text, annotations: [] }],
                },
              ]
            : []),
          ...calls.map((c, i) => ({
            type: "function_call",
            id: `fc_${id}_${i}`,
            call_id: c.id,
            name: c.name,
            arguments: argumentsText(c.arguments),
            status: "completed",
          })),
        ],
        usage: responsesUsage(usage),
      };
    case "chat":
      return {
        id,
        object: "chat.completion",
        created: 1_800_000_000,
        model: request.model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: text ?? null,
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((c) => ({
                      id: c.id,
                      type: "function",
                      function: { name: c.name, arguments: argumentsText(c.arguments) },
                    })),
                  }
                : {}),
            },
            finish_reason: calls.length > 0 ? "tool_calls" : "stop",
          },
        ],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      };
    case "anthropic":
      return {
        id: `msg_${id}`,
        type: "message",
        role: "assistant",
        model: request.model,
        content: [
          ...(text !== undefined ? [{ type: "text", text }] : []),
          // The Messages API carries tool input as an object; a non-JSON string goes through as a string.
          ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.arguments })),
        ],
        stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      };
  }
}

function encodeStream(request: FakeRequest, turn: Extract<FakeTurn, { kind: "answer" | "json" }>): string[] {
  const { text, calls, usage } = partsOf(request, turn);
  const id = `resp_${request.model}_${request.index}`;
  // Text goes out in a few deltas, as a provider streams it (or in the paced turn's chunks).
  const deltas = text === undefined ? [] : turn.paced ? [...turn.paced.chunks] : (text.match(/[\s\S]{1,12}/g) ?? [""]);
  switch (request.protocol) {
    case "responses": {
      const events: unknown[] = [{ type: "response.created", response: { id, created_at: 1_800_000_000, model: request.model } }];
      let index = 0;
      if (text !== undefined) {
        const item = { type: "message", id: `msg_${id}` };
        events.push({ type: "response.output_item.added", output_index: index, item });
        for (const delta of deltas) events.push({ type: "response.output_text.delta", item_id: item.id, output_index: index, delta });
        events.push({ type: "response.output_item.done", output_index: index, item });
        index += 1;
      }
      for (const c of calls) {
        const item = { type: "function_call", id: `fc_${id}_${index}`, call_id: c.id, name: c.name };
        events.push({ type: "response.output_item.added", output_index: index, item: { ...item, arguments: "" } });
        events.push({
          type: "response.function_call_arguments.delta",
          item_id: item.id,
          output_index: index,
          delta: argumentsText(c.arguments),
        });
        events.push({
          type: "response.output_item.done",
          output_index: index,
          item: { ...item, arguments: argumentsText(c.arguments), status: "completed" },
        });
        index += 1;
      }
      events.push({ type: "response.completed", response: { incomplete_details: null, usage: responsesUsage(usage) } });
      return events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
    }
    case "chat": {
      const chunk = (delta: unknown, finish: string | null = null) => ({
        id,
        object: "chat.completion.chunk",
        created: 1_800_000_000,
        model: request.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      const events: unknown[] = [chunk({ role: "assistant", content: "" })];
      for (const delta of deltas) events.push(chunk({ content: delta }));
      calls.forEach((c, i) => {
        events.push(chunk({ tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }));
        events.push(chunk({ tool_calls: [{ index: i, function: { arguments: argumentsText(c.arguments) } }] }));
      });
      events.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"));
      events.push({
        id,
        object: "chat.completion.chunk",
        created: 1_800_000_000,
        model: request.model,
        choices: [],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      });
      return [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), "data: [DONE]\n\n"];
    }
    case "anthropic": {
      const events: unknown[] = [
        {
          type: "message_start",
          message: {
            id: `msg_${id}`,
            type: "message",
            role: "assistant",
            model: request.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: usage.input, output_tokens: 1 },
          },
        },
      ];
      let index = 0;
      if (text !== undefined) {
        events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        for (const delta of deltas) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: delta } });
        events.push({ type: "content_block_stop", index });
        index += 1;
      }
      for (const c of calls) {
        events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } });
        events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: argumentsText(c.arguments) } });
        events.push({ type: "content_block_stop", index });
        index += 1;
      }
      events.push({
        type: "message_delta",
        delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output },
      });
      events.push({ type: "message_stop" });
      return events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
    }
  }
}

function responsesUsage(usage: FakeUsage) {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

function sendError(
  res: ServerResponse,
  protocol: Protocol,
  status: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): void {
  const type = status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
  const body =
    protocol === "anthropic" ? { type: "error", error: { type, message } } : { error: { message, type, code: null, param: null } };
  sendJson(res, status, body, headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
    req.on("error", fail);
  });
}
