import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

/**
 * The API commands of `little`, run as a user runs them (a child process) against a fake /v1
 * server that implements the HTTP contract in memory and records every request.
 */

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
const TOKEN = "test-token";
const ADMIN = "admin-secret";

type Result = { code: number; stdout: string; stderr: string };

function little(args: string[], options: { env?: Record<string, string | undefined>; stdin?: string } = {}): Promise<Result> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    LITTLE_URL: baseUrl,
    LITTLE_TOKEN: TOKEN,
    LITTLE_ADMIN_TOKEN: undefined,
  };
  for (const [key, value] of Object.entries(options.env ?? {})) env[key] = value;
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { env: env as NodeJS.ProcessEnv, timeout: 20_000 },
      (error, stdout, stderr) => {
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.stdin ?? "");
  });
}

// ---------------------------------------------------------------------------------------------
// The fake server

type Recorded = { method: string; path: string; query: Record<string, string>; headers: IncomingHttpHeaders; body: unknown; at: number };
type RunView = {
  runId: string;
  status: string;
  workflowId: string;
  versionId?: string;
  output?: unknown;
  cause?: { code: string; message: string; details?: unknown };
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  eventCount: number;
  createdAt: number;
  input?: unknown;
};
type FakeRun = { view: RunView; polls: number; onPoll?: (polls: number, view: RunView) => Partial<RunView> };
type Event = { seq: number; runId: string; type: string; at: number; payload: unknown };
type StreamHandler = (req: IncomingMessage, res: ServerResponse, after: number) => void;

let server: Server;
let baseUrl: string;
let requests: Recorded[] = [];
let runs = new Map<string, FakeRun>();
let streamPlan: StreamHandler[] = [];
let runCounter = 0;

const T0 = Date.parse("2025-03-01T12:00:00.000Z");
const VERSION_ID = "wfver_0123456789abcdef";
const completed = (view: RunView): Partial<RunView> => ({
  status: "completed",
  versionId: VERSION_ID,
  output: { summary: "Printer on fire", severity: "high" },
  usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 },
  eventCount: view.eventCount + 5,
});

const EVENTS: Event[] = [
  { type: "RunRequested", payload: { workflowId: "wf.events", input: {}, trigger: { kind: "http" }, tenant: "acme" } },
  { type: "RunStarted", payload: { versionId: VERSION_ID, lockHash: "sha256:11", cycle: 1 } },
  { type: "StepStarted", payload: { stepPath: "summarize", attempt: 1 } },
  {
    type: "harness.model.called",
    payload: {
      sessionId: "ses_1",
      callId: "call_m1",
      turn: 1,
      requestHash: "sha256:22",
      modelSlotId: "default",
      providerId: "openai",
      modelId: "gpt-4o-mini",
    },
  },
  {
    type: "harness.tool_call.started",
    payload: { sessionId: "ses_1", callId: "call_t1", caller: "model", tool: "kb.search", args: { q: "x" }, idempotencyKey: "k" },
  },
  { type: "StepSucceeded", payload: { stepPath: "summarize", attempt: 1, output: { summary: "s" } } },
  { type: "RunFailed", payload: { causeCode: "step_failed", message: "the classify step failed" } },
].map((event, i) => ({ ...event, seq: i + 1, runId: "run_ev", at: T0 + i * 1000 }));

const SUMMARIES = [
  {
    runId: "run_a",
    workflowId: "support.summarize-ticket",
    status: "completed",
    triggerKind: "http",
    versionId: VERSION_ID,
    causeCode: null,
    createdAt: T0,
    updatedAt: T0 + 1500,
  },
  {
    runId: "run_bb",
    workflowId: "wf.x",
    status: "failed",
    triggerKind: "http",
    versionId: null,
    causeCode: "model_error",
    createdAt: T0 + 60_000,
    updatedAt: T0 + 185_000,
  },
  {
    runId: "run_ccc",
    workflowId: "wf.x",
    status: "cancelled",
    triggerKind: "webhook",
    versionId: null,
    causeCode: null,
    createdAt: T0 + 90_000,
    updatedAt: T0 + 90_400,
  },
];

/** Runs waiting, listed for `--status waiting` (and filtered by `--wait-reason`). */
const WAITING = [
  { ...SUMMARIES[0], runId: "run_wa", status: "waiting", waitReason: "approval", createdAt: T0 + 5_000 },
  { ...SUMMARIES[0], runId: "run_wt", status: "waiting", waitReason: "trigger", createdAt: T0 + 4_000 },
];

const VERSION = {
  version: {
    id: VERSION_ID,
    hash: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    canonicalizer: "little-workflow-canonical-json@alpha",
    lwir: {
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "support.summarize-ticket", version: "0.1.0" },
      steps: [
        { id: "summarize", uses: "ai.generate", needs: [], with: { model: "gpt-4o-mini", prompt: "x" } },
        { id: "classify", uses: "tool.call", needs: ["summarize"], with: { tool: "kb.classify" } },
        { id: "report", uses: "code.run", needs: ["summarize", "classify"], with: {} },
      ],
    },
  },
  locks: [{ lockHash: "sha256:10ck", definitionHash: "sha256:def1", lock: { compiler: "x" } }],
};

function sseMessage(event: Event): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The contract's stream: everything after Last-Event-ID, ending after the terminal event. */
const defaultStream: StreamHandler = (_req, res, after) => {
  res.write(": little-workflow event stream\nretry: 20\n\n");
  for (const event of EVENTS) if (event.seq > after) res.write(sseMessage(event));
  res.end();
};

/** Answers JSON; true means "handled". */
function send(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
  return true;
}

function error(res: ServerResponse, status: number, code: string, message: string, extra: Record<string, unknown> = {}): true {
  return send(res, status, { error: { code, message, ...extra } });
}

function links(runId: string) {
  return {
    self: `${baseUrl}/v1/runs/${runId}`,
    events: `${baseUrl}/v1/runs/${runId}/events`,
    stream: `${baseUrl}/v1/runs/${runId}/events/stream`,
  };
}

function matches(type: string, filter: string | undefined): boolean {
  if (!filter) return true;
  return filter.split(",").some((p) => (p.endsWith("*") ? type.startsWith(p.slice(0, -1)) : type === p));
}

function handle(req: IncomingMessage, res: ServerResponse, body: unknown): true {
  const url = new URL(req.url ?? "/", baseUrl);
  const path = url.pathname;
  const q = Object.fromEntries(url.searchParams);
  const auth = req.headers.authorization;
  const startRun = path.match(/^\/v1\/workflows\/([^/]+)\/runs$/);
  const runRoute = path.match(/^\/v1\/runs\/([^/]+)(\/.*)?$/);
  const versionRoute = path.match(/^\/v1\/versions\/([^/]+)$/);

  if (req.method === "POST" && path === "/v1/tokens") {
    if (auth !== `Bearer ${ADMIN}`) return error(res, 403, "forbidden", "The admin token is required");
    const b = body as { tenant: string; label?: string };
    return send(res, 201, { token: "ltk_once_9f8e7d", tenant: b.tenant });
  }
  if (auth !== `Bearer ${TOKEN}`) return error(res, 401, "unauthorized", "Missing or invalid bearer token");

  if (req.method === "POST" && path === "/v1/lwir/validate") {
    if (q.workflow === "missing") return error(res, 404, "workflow_not_found", 'No workflow "missing"');
    const finding = { severity: "error", code: "binding.tool_input_mismatch", path: "$.steps[0].with.input", message: "needs ticketId" };
    return send(res, 200, q.workflow ? { valid: false, findings: [finding] } : { valid: true, findings: [] });
  }
  if (req.method === "POST" && path === "/v1/lwir/runs") {
    const b = body as { lwir: { metadata: { name: string } }; input: unknown; runId?: string };
    const runId = b.runId ?? `run_${++runCounter}`;
    const view: RunView = { runId, status: "pending", workflowId: b.lwir.metadata.name, eventCount: 1, createdAt: T0, input: b.input };
    runs.set(runId, { view, polls: 0 });
    return send(res, 202, { run: view, links: links(runId) });
  }
  if (req.method === "POST" && startRun) {
    const workflowId = decodeURIComponent(startRun[1] as string);
    const b = body as { input: unknown; runId?: string };
    if (workflowId === "missing") return error(res, 404, "workflow_not_found", `No workflow "${workflowId}"`);
    if (typeof b.input !== "object" || b.input === null || Array.isArray(b.input)) {
      return error(res, 422, "input_schema_error", "The input does not match the workflow's input schema", {
        findings: [{ code: "schema.type", path: "$", message: "must be object" }],
      });
    }
    const runId = b.runId ?? `run_${++runCounter}`;
    const view: RunView = { runId, status: "pending", workflowId, eventCount: 1, createdAt: T0, input: b.input };
    const run: FakeRun = { view, polls: 0 };
    const waited = q.wait !== undefined;
    let status = 202;
    if (workflowId === "wf.slow") {
      view.status = "running";
      run.onPoll = (polls, v) => (polls >= 3 ? completed(v) : {});
    } else if (workflowId === "wf.stuck") {
      view.status = "running";
    } else if (workflowId === "wf.approval") {
      Object.assign(view, { status: "waiting", waitReason: "approval", waitingUntil: T0 + 86_400_000 });
    } else if (workflowId === "wf.section") {
      Object.assign(view, { status: "waiting", waitReason: "trigger" });
    } else if (workflowId === "wf.failing") {
      view.status = "running";
      run.onPoll = () => ({
        status: "failed",
        cause: { code: "model_error", message: "the model refused", details: { provider: "openai" } },
      });
    } else if (workflowId === "wf.instant" && waited) {
      Object.assign(view, completed(view));
      status = 200;
    } else if (workflowId === "wf.cancelled" && waited) {
      view.status = "cancelled";
      view.cause = { code: "cancelled", message: "cancelled by request" };
      status = 200;
    }
    runs.set(runId, run);
    return send(res, status, { run: view, links: links(runId) });
  }

  if (req.method === "GET" && path === "/v1/runs" && (q.status === "waiting" || q.waitReason)) {
    return send(res, 200, { runs: WAITING.filter((r) => !q.waitReason || r.waitReason === q.waitReason), nextCursor: null });
  }
  if (req.method === "GET" && path === "/v1/runs") {
    let list = SUMMARIES.filter((r) => (!q.workflow || r.workflowId === q.workflow) && (!q.status || r.status === q.status));
    const start = q.cursor === "c2" ? 2 : 0;
    const limit = Number(q.limit ?? 2);
    const nextCursor = start + limit < list.length ? "c2" : null;
    list = list.slice(start, start + limit);
    return send(res, 200, { runs: list, nextCursor });
  }

  if (runRoute) {
    const runId = decodeURIComponent(runRoute[1] as string);
    const rest = runRoute[2] ?? "";
    if (runId === "run_html") {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>Bad Gateway</body></html>");
      return true;
    }
    const run = runs.get(runId);
    const known = run !== undefined || runId === "run_ev";
    if (!known) return error(res, 404, "run_not_found", `No run "${runId}"`);
    if (req.method === "GET" && rest === "" && run) {
      run.polls++;
      Object.assign(run.view, run.onPoll?.(run.polls, run.view) ?? {});
      return send(res, 200, { run: run.view });
    }
    if (req.method === "POST" && (rest === "/pause" || rest === "/resume") && run) {
      if (!["completed", "failed", "cancelled"].includes(run.view.status))
        Object.assign(run.view, { status: rest === "/pause" ? "paused" : "running" });
      return send(res, 200, { run: run.view });
    }
    if (req.method === "POST" && rest === "/cancel" && run) {
      if (!["completed", "failed", "cancelled"].includes(run.view.status)) {
        Object.assign(run.view, { status: "cancelled", cause: { code: "cancelled", message: "cancelled by request" } });
      }
      return send(res, 200, { run: run.view });
    }
    if (req.method === "GET" && rest === "/events") {
      const after = Number(q.after ?? 0);
      const limit = Number(q.limit ?? 4);
      const all = EVENTS.filter((e) => e.seq > after && matches(e.type, q.type));
      const page = all.slice(0, limit);
      return send(res, 200, { events: page, nextAfter: all.length > limit ? (page.at(-1)?.seq ?? null) : null });
    }
    if (req.method === "GET" && rest === "/events/stream") {
      const after = Number(req.headers["last-event-id"] ?? 0);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      (streamPlan.shift() ?? defaultStream)(req, res, after);
      return true;
    }
  }

  if (req.method === "GET" && versionRoute) {
    if (decodeURIComponent(versionRoute[1] as string) !== VERSION_ID) return error(res, 404, "version_not_found", "No such version");
    return send(res, 200, VERSION);
  }

  return error(res, 404, "not_found", `No route for ${req.method} ${path}`);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? JSON.parse(text) : undefined;
      const url = new URL(req.url ?? "/", "http://x");
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        at: Date.now(),
      });
      handle(req, res, body);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), "little-api-"));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
  runs = new Map();
  streamPlan = [];
  runCounter = 0;
});

let dir: string;

const only = (method: string, pathPrefix: string) => requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
const noStack = (r: Result) => expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
const noAnsi = (r: Result) => expect(`${r.stdout}${r.stderr}`).not.toContain("\u001b[");

// ---------------------------------------------------------------------------------------------

describe("little validate --workflow against a running Worker", () => {
  it("POSTs the document to /v1/lwir/validate?workflow= and prints the server's findings; exit 1 when invalid", async () => {
    const file = join(dir, "plan.lwir.json");
    await writeFile(file, JSON.stringify({ apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow" }));
    const r = await little(["validate", file, "--workflow", "wf.basic"]);
    expect(r.code, r.stderr).toBe(1);
    const req = requests.find((x) => x.path === "/v1/lwir/validate");
    expect(req).toMatchObject({ method: "POST", query: { workflow: "wf.basic" }, body: { kind: "Workflow" } });
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: false,
      findings: [expect.objectContaining({ code: "binding.tool_input_mismatch", path: "$.steps[0].with.input" })],
    });
  });

  it("an unknown workflow is the server's 404 as a JSON error, exit 3", async () => {
    const file = join(dir, "plan.lwir.json");
    const r = await little(["validate", file, "--workflow", "missing"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stderr).error.code).toBe("workflow_not_found");
  });
});

describe("little run --lwir", () => {
  it("POSTs the LWIR document and the input to /v1/lwir/runs", async () => {
    const file = join(dir, "given.lwir.json");
    await writeFile(file, JSON.stringify({ apiVersion: "littleworkflow.dev/v0.1", metadata: { name: "wf.basic" } }));
    const r = await little(["run", "--lwir", file, "--input", '{"ticketId":"T-9"}']);
    expect(r.code).toBe(0);
    const [req] = requests;
    expect(req?.path).toBe("/v1/lwir/runs");
    expect(req?.body).toEqual({
      input: { ticketId: "T-9" },
      lwir: { apiVersion: "littleworkflow.dev/v0.1", metadata: { name: "wf.basic" } },
    });
    expect(r.stdout).toMatch(/^workflow\s+wf\.basic$/m);
  });

  it("refuses a workflow id together with --lwir, and neither", async () => {
    expect((await little(["run", "wf.basic", "--lwir", "x.json", "--input", "{}"])).code).toBe(2);
    expect((await little(["run", "--input", "{}"])).code).toBe(2);
  });
});

describe("little run", () => {
  it("starts a run: POSTs input, run id and idempotency key with the bearer token; prints status, ids and links", async () => {
    const r = await little(["run", "wf.basic", "--input", '{"ticketId":"T-1"}', "--run-id", "run_custom", "--idempotency-key", "idem-1"]);
    expect(r.code).toBe(0);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/v1/workflows/wf.basic/runs");
    expect(req?.query).toEqual({});
    expect(req?.headers.authorization).toBe("Bearer test-token");
    expect(req?.headers["idempotency-key"]).toBe("idem-1");
    expect(req?.headers["content-type"]).toMatch(/^application\/json/);
    expect(req?.body).toEqual({ input: { ticketId: "T-1" }, runId: "run_custom" });
    expect(r.stdout).toMatch(/^status\s+pending$/m);
    expect(r.stdout).toMatch(/^run id\s+run_custom$/m);
    expect(r.stdout).toMatch(/^workflow\s+wf\.basic$/m);
    expect(r.stdout).toContain(`self    ${baseUrl}/v1/runs/run_custom`);
    expect(r.stdout).toContain(`stream  ${baseUrl}/v1/runs/run_custom/events/stream`);
    noAnsi(r);
  });

  it("sends no run id or idempotency key when not given, and --json prints the response", async () => {
    const r = await little(["run", "wf.basic", "--input", "{}", "--json"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.body).toEqual({ input: {} });
    expect(requests[0]?.headers["idempotency-key"]).toBeUndefined();
    expect(JSON.parse(r.stdout)).toEqual({
      run: { runId: "run_1", status: "pending", workflowId: "wf.basic", eventCount: 1, createdAt: T0, input: {} },
      links: links("run_1"),
    });
  });

  it("reads --input from @file and from @- (stdin)", async () => {
    await writeFile(join(dir, "input.json"), JSON.stringify({ ticketId: "T-9", transcript: "help" }));
    expect((await little(["run", "wf.basic", "--input", `@${join(dir, "input.json")}`])).code).toBe(0);
    expect((await little(["run", "wf.basic", "--input", "@-"], { stdin: '{"from":"stdin"}' })).code).toBe(0);
    expect(requests.map((r) => r.body)).toEqual([{ input: { ticketId: "T-9", transcript: "help" } }, { input: { from: "stdin" } }]);
  });

  it("--wait without a value asks the server to wait 60 s, then polls every 500 ms until the run ends", async () => {
    const r = await little(["run", "wf.slow", "--input", "{}", "--wait"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.query).toEqual({ wait: "60" });
    const polls = only("GET", "/v1/runs/run_1");
    expect(polls).toHaveLength(3);
    const times = [requests[0], ...polls].map((p) => p?.at ?? 0);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(400);
    expect(r.stdout).toMatch(/^status\s+completed$/m);
    expect(r.stdout).toMatch(/^version id\s+wfver_0123456789abcdef$/m);
    expect(r.stdout).toContain('"summary": "Printer on fire"');
    expect(r.stdout).toMatch(/^usage\s+120 in \+ 30 out = 150 tokens$/m);
    expect(r.stdout).toContain(`self    ${baseUrl}/v1/runs/run_1`);
  });

  it("--wait <s> is sent as ?wait=<s>; a run still going at the deadline is printed with exit 0 and a hint", async () => {
    // --wait 3: room for several 500 ms polls even when a child process on a busy machine starts slowly.
    const r = await little(["run", "wf.stuck", "--input", "{}", "--wait", "3", "--json"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.query).toEqual({ wait: "3" });
    const polls = only("GET", "/v1/runs/run_1").length;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(6);
    expect(JSON.parse(r.stdout).run.status).toBe("running");
    expect(r.stderr).toContain("little events run_1 --follow");
  });

  it("a run waiting for an approval keeps --wait polling, prints `waiting (approval)` and says where to decide", async () => {
    // --wait 3, not 1: a poll comes only when the start answered with a poll interval (500 ms) to
    // spare before the deadline, and a child process on a busy machine can take longer than that.
    const r = await little(["run", "wf.approval", "--input", "{}", "--wait", "3"]);
    expect(r.code).toBe(0);
    expect(only("GET", "/v1/runs/run_1").length).toBeGreaterThanOrEqual(1);
    expect(r.stdout).toMatch(/^status\s+waiting \(approval\)$/m);
    expect(r.stdout).toMatch(/^waits until\s+2025-03-02T12:00:00.000Z$/m);
    expect(r.stderr).toContain("run run_1 is still waiting (approval) after 3s; it waits for an approval: little approvals run_1");
  });

  it("a section waiting for its next trigger is settled: --wait stops at once", async () => {
    const r = await little(["run", "wf.section", "--input", "{}", "--wait", "10"]);
    expect(r.code).toBe(0);
    expect(requests).toHaveLength(1);
    expect(r.stdout).toMatch(/^status\s+waiting \(trigger\)$/m);
    expect(r.stderr).toBe("");
  });

  it("does not poll when the server answers 200 with the ended run", async () => {
    const r = await little(["run", "wf.instant", "--input", "{}", "--wait", "10", "--json"]);
    expect(r.code).toBe(0);
    expect(requests).toHaveLength(1);
    const out = JSON.parse(r.stdout);
    expect(out.run.status).toBe("completed");
    expect(out.run.output).toEqual({ summary: "Printer on fire", severity: "high" });
    expect(out.links).toEqual(links("run_1"));
  });

  it("exits 1 when the run failed, printing its cause", async () => {
    const r = await little(["run", "wf.failing", "--input", "{}", "--wait", "5"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^status\s+failed$/m);
    expect(r.stdout).toMatch(/^cause\s+model_error: the model refused$/m);
    expect(r.stdout).toContain('"provider": "openai"');
    const json = await little(["run", "wf.failing", "--input", "{}", "--wait", "5", "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).run.cause.code).toBe("model_error");
  });

  it("exits 1 when the run was cancelled", async () => {
    const r = await little(["run", "wf.cancelled", "--input", "{}", "--wait"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^status\s+cancelled$/m);
  });

  it.each([
    [["run", "wf.basic"], "usage"],
    [["run", "--input", "{}"], "usage"],
    [["run", "wf.basic", "--input", "{nope"], "invalid_json"],
    [["run", "wf.basic", "--input", "@/definitely/not/here.json"], "file_not_found"],
    [["run", "wf.basic", "--input", "{}", "--wiat"], "usage"],
    [["run", "wf.basic", "--input", "{}", "--wait", "soon"], "usage"],
    [["run", "a", "b", "--input", "{}"], "usage"],
  ])("exits 2 without calling the server for %j (%s)", async (args, code) => {
    const human = await little(args);
    expect(human.code).toBe(2);
    expect(human.stdout).toBe("");
    expect(human.stderr.trim().split("\n")).toHaveLength(1);
    expect(human.stderr).toContain(`(${code})`);
    noStack(human);
    const json = await little([...args, "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error.code).toBe(code);
    expect(requests).toHaveLength(0);
  });

  it("passes the server's error through: 422 with findings (exit 3)", async () => {
    const json = await little(["run", "wf.basic", "--input", "[1,2]", "--json"]);
    expect(json.code).toBe(3);
    expect(json.stdout).toBe("");
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        code: "input_schema_error",
        message: "The input does not match the workflow's input schema",
        findings: [{ code: "schema.type", path: "$", message: "must be object" }],
      },
    });
    const human = await little(["run", "wf.basic", "--input", "[1,2]"]);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain("error (input_schema_error, HTTP 422): The input does not match the workflow's input schema");
    expect(human.stderr).toContain("  - $: must be object [schema.type]");
    noStack(human);
  });

  it("--token overrides LITTLE_TOKEN (and a rejected token is exit 3)", async () => {
    const r = await little(["run", "wf.basic", "--input", "{}", "--token", "other"]);
    expect(requests[0]?.headers.authorization).toBe("Bearer other");
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toBe("error (unauthorized, HTTP 401): Missing or invalid bearer token");
  });

  it("--url overrides LITTLE_URL", async () => {
    const r = await little(["run", "wf.basic", "--input", "{}", "--url", `${baseUrl}/`], { env: { LITTLE_URL: "http://127.0.0.1:9" } });
    expect(r.code).toBe(0);
    expect(requests[0]?.path).toBe("/v1/workflows/wf.basic/runs");
  });
});

describe("little runs", () => {
  it("prints an aligned table with ISO start times and durations, forwards filters, and hints the next cursor", async () => {
    const r = await little(["runs", "--workflow", "wf.x", "--limit", "1"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.path).toBe("/v1/runs");
    expect(requests[0]?.query).toEqual({ workflow: "wf.x", limit: "1" });
    expect(r.stdout).toContain("RUN ID  WORKFLOW  STATUS  VERSION  STARTED                   DURATION");
    expect(r.stdout).toContain("run_bb  wf.x      failed  -        2025-03-01T12:01:00.000Z  2m 05s");
    expect(r.stdout).toContain("more runs: little runs --workflow wf.x --limit 1 --cursor c2");
    noAnsi(r);
  });

  it("aligns columns across rows of different widths", async () => {
    const r = await little(["runs", "--limit", "3"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const header = lines[0] ?? "";
    expect(lines).toHaveLength(4);
    for (const column of ["WORKFLOW", "STATUS", "VERSION", "STARTED", "DURATION"]) {
      const at = header.indexOf(column);
      for (const line of lines.slice(1)) {
        expect(line[at - 1]).toBe(" ");
        expect(line[at]).not.toBe(" ");
      }
    }
    expect(lines[1]).toContain("1.5s");
    expect(lines[3]).toContain("400ms");
    expect(r.stdout).not.toContain("more runs");
  });

  it("pages with --cursor and passes --status through; --json prints the page", async () => {
    const r = await little(["runs", "--cursor", "c2", "--status", "cancelled", "--json"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.query).toEqual({ cursor: "c2", status: "cancelled" });
    expect(JSON.parse(r.stdout)).toEqual({ runs: [], nextCursor: null });
    const all = await little(["runs", "--json"]);
    expect(JSON.parse(all.stdout)).toEqual({ runs: SUMMARIES.slice(0, 2), nextCursor: "c2" });
  });

  it("lists waiting runs with what they wait for, and passes --wait-reason through", async () => {
    const r = await little(["runs", "--status", "waiting"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.query).toEqual({ status: "waiting" });
    expect(r.stdout).toContain("run_wa  support.summarize-ticket  waiting (approval)");
    expect(r.stdout).toContain("run_wt  support.summarize-ticket  waiting (trigger) ");
    const approvals = await little(["runs", "--wait-reason", "approval", "--json"]);
    expect(requests[1]?.query).toEqual({ waitReason: "approval" });
    expect(JSON.parse(approvals.stdout).runs.map((x: { runId: string }) => x.runId)).toEqual(["run_wa"]);
  });

  it.each([[["--status", "exploded"]], [["--wait-reason", "nap"]], [["--limit", "0"]], [["--limit", "ten"]], [["extra"]]])(
    "exits 2 for %j",
    async (args) => {
      const r = await little(["runs", ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("(usage)");
      expect(requests).toHaveLength(0);
    },
  );
});

describe("little events", () => {
  it("pages through all events (following nextAfter) and prints seq, time, type and a summary", async () => {
    const r = await little(["events", "run_ev"]);
    expect(r.code).toBe(0);
    const pages = only("GET", "/v1/runs/run_ev/events");
    expect(pages.map((p) => p.query)).toEqual([{}, { after: "4" }]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(/^ {3}1 {2}2025-03-01T12:00:00\.000Z {2}RunRequested {17}wf\.events {2}trigger=http {2}tenant=acme$/);
    expect(lines[3]).toMatch(/^ {3}4 {2}2025-03-01T12:00:03\.000Z {2}harness\.model\.called {9}call_m1 {2}openai\/gpt-4o-mini {2}turn=1$/);
    expect(lines[4]).toMatch(/harness\.tool_call\.started {4}kb\.search {2}call_t1$/);
    expect(lines[5]).toMatch(/StepSucceeded {16}summarize {2}attempt=1$/);
    expect(lines[6]).toMatch(/RunFailed {20}step_failed: {2}the classify step failed$/);
    noAnsi(r);
  });

  it("--json prints NDJSON, one event a line, exactly as the server sent them", async () => {
    const r = await little(["events", "run_ev", "--json"]);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(EVENTS);
  });

  it("forwards --type and --after", async () => {
    const r = await little(["events", "run_ev", "--type", "harness.*,RunFailed", "--after", "3", "--json"]);
    expect(r.code).toBe(0);
    expect(requests[0]?.query).toEqual({ type: "harness.*,RunFailed", after: "3" });
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).seq),
    ).toEqual([4, 5, 7]);
  });

  it("passes 404 run_not_found through: one readable line, or the JSON body with --json (exit 3)", async () => {
    const human = await little(["events", "run_nope"]);
    expect(human.code).toBe(3);
    expect(human.stdout).toBe("");
    expect(human.stderr).toBe('error (run_not_found, HTTP 404): No run "run_nope"\n');
    const json = await little(["events", "run_nope", "--json"]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: "run_not_found", message: 'No run "run_nope"' } });
  });

  it("--follow reads the SSE stream to the terminal event", async () => {
    const r = await little(["events", "run_ev", "--follow", "--json"]);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(EVENTS);
    const streams = only("GET", "/v1/runs/run_ev/events/stream");
    expect(streams).toHaveLength(1);
    expect(streams[0]?.headers.accept).toBe("text/event-stream");
    expect(streams[0]?.headers.authorization).toBe("Bearer test-token");
    expect(streams[0]?.headers["last-event-id"]).toBeUndefined();
  });

  it("--follow resumes with Last-Event-ID after a dropped connection and after a stream that ends early, never repeating an event", async () => {
    streamPlan = [
      // Drops mid-message: event 4 is half-written when the socket dies.
      (_req, res) => {
        res.write(": hello\nretry: 20\n\n");
        res.write(EVENTS.slice(0, 3).map(sseMessage).join(""));
        const partial = sseMessage(EVENTS[3] as Event);
        res.write(partial.slice(0, partial.length - 20), () => setTimeout(() => res.socket?.destroy(), 30));
      },
      // Resends event 3 (already seen), sends 4-5 split across writes with CRLF line ends, then ends without a terminal event.
      (_req, res) => {
        const text = EVENTS.slice(2, 5).map(sseMessage).join("").replaceAll("\n", "\r\n");
        res.write(text.slice(0, 101));
        setTimeout(() => res.end(text.slice(101)), 20);
      },
      defaultStream,
    ];
    const r = await little(["events", "run_ev", "--follow"]);
    expect(r.code).toBe(0);
    const streams = only("GET", "/v1/runs/run_ev/events/stream");
    expect(streams.map((s) => s.headers["last-event-id"])).toEqual([undefined, "3", "5"]);
    const seqs = r.stdout
      .trimEnd()
      .split("\n")
      .map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(r.stdout).toContain("call_m1");
    expect(r.stdout).toMatch(/RunFailed\s+step_failed: {2}the classify step failed\n$/);
  });

  it("--follow --after starts from Last-Event-ID and --type filters but still stops at the terminal event", async () => {
    const r = await little(["events", "run_ev", "--follow", "--after", "2", "--type", "Step*", "--json"]);
    expect(r.code).toBe(0);
    const streams = only("GET", "/v1/runs/run_ev/events/stream");
    expect(streams).toHaveLength(1);
    expect(streams[0]?.headers["last-event-id"]).toBe("2");
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).type),
    ).toEqual(["StepStarted", "StepSucceeded"]);
  });

  it("--follow on an unknown run is exit 3 at once (no reconnecting on 404)", async () => {
    const r = await little(["events", "run_nope", "--follow", "--json"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stderr).error.code).toBe("run_not_found");
    expect(requests).toHaveLength(1);
  });

  it("a non-JSON error answer is bad_response (exit 3)", async () => {
    const r = await little(["events", "run_html"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("error (bad_response, HTTP 502)");
    noStack(r);
  });

  it.each([[["--after", "-1"]], [["--after", "x"]], [[]]])("exits 2 for bad arguments %j", async (args) => {
    const r = await little(["events", ...(args.length ? ["run_ev", ...args] : [])]);
    expect(r.code).toBe(2);
    expect(requests).toHaveLength(0);
  });
});

describe("little versions", () => {
  it("prints id, hash, canonicalizer, locks and the LWIR steps with their needs", async () => {
    const r = await little(["versions", VERSION_ID]);
    expect(r.code).toBe(0);
    expect(requests[0]?.path).toBe(`/v1/versions/${VERSION_ID}`);
    expect(r.stdout).toMatch(new RegExp(`^id\\s+${VERSION_ID}$`, "m"));
    expect(r.stdout).toMatch(new RegExp(`^hash\\s+${VERSION.version.hash}$`, "m"));
    expect(r.stdout).toMatch(/^canonicalizer\s+little-workflow-canonical-json@alpha$/m);
    expect(r.stdout).toContain("  DEFINITION HASH  LOCK HASH\n  sha256:def1      sha256:10ck");
    expect(r.stdout).toContain("  summarize  ai.generate  -\n");
    expect(r.stdout).toContain("  classify   tool.call    summarize\n");
    expect(r.stdout).toContain("  report     code.run     summarize, classify\n");
  });

  it("--json prints the response; an unknown version is exit 3", async () => {
    const r = await little(["versions", VERSION_ID, "--json"]);
    expect(JSON.parse(r.stdout)).toEqual(VERSION);
    const missing = await little(["versions", "wfver_nope", "--json"]);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stderr)).toEqual({ error: { code: "version_not_found", message: "No such version" } });
  });
});

describe("little cancel", () => {
  it("POSTs /v1/runs/:id/cancel and prints the cancelled run (exit 0)", async () => {
    await little(["run", "wf.stuck", "--input", "{}"]);
    const r = await little(["cancel", "run_1"]);
    expect(r.code).toBe(0);
    const cancel = only("POST", "/v1/runs/run_1/cancel");
    expect(cancel).toHaveLength(1);
    expect(cancel[0]?.headers.authorization).toBe("Bearer test-token");
    expect(r.stdout).toMatch(/^status\s+cancelled$/m);
    expect(r.stdout).toMatch(/^cause\s+cancelled: cancelled by request$/m);
    const json = await little(["cancel", "run_1", "--json"]);
    expect(JSON.parse(json.stdout).run).toMatchObject({ runId: "run_1", status: "cancelled" });
  });

  it("little pause / little resume POST …/pause and …/resume and print the run (exit 0); run --tag sends tags", async () => {
    await little(["run", "wf.stuck", "--input", "{}", "--tag", "team=billing", "--tag", "env=prod"]);
    expect(only("POST", "/v1/workflows/wf.stuck/runs")[0]?.body).toMatchObject({ tags: { team: "billing", env: "prod" } });
    const paused = await little(["pause", "run_1"]);
    expect(paused.code).toBe(0);
    expect(only("POST", "/v1/runs/run_1/pause")).toHaveLength(1);
    expect(paused.stdout).toMatch(/^status\s+paused$/m);
    const resumed = await little(["resume", "run_1", "--json"]);
    expect(JSON.parse(resumed.stdout).run).toMatchObject({ runId: "run_1", status: "running" });
    expect((await little(["run", "wf.stuck", "--input", "{}", "--tag", "no-equals"])).code).toBe(2);
  });

  it("an unknown run is 404 run_not_found, exit 3", async () => {
    const r = await little(["cancel", "run_nope"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("run_not_found");
  });
});

describe("little token create", () => {
  it("mints a token with the admin token from LITTLE_ADMIN_TOKEN and prints it once", async () => {
    const r = await little(["token", "create", "--tenant", "acme", "--label", "ci"], { env: { LITTLE_ADMIN_TOKEN: ADMIN } });
    expect(r.code).toBe(0);
    expect(requests[0]?.method).toBe("POST");
    expect(requests[0]?.path).toBe("/v1/tokens");
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${ADMIN}`);
    expect(requests[0]?.body).toEqual({ tenant: "acme", label: "ci" });
    expect(r.stdout.split("ltk_once_9f8e7d")).toHaveLength(2);
    expect(r.stdout).toMatch(/^token\s+ltk_once_9f8e7d$/m);
    expect(r.stdout).toMatch(/^tenant\s+acme$/m);
  });

  it("--admin-token wins over the environment; --json prints the response", async () => {
    const r = await little(["token", "create", "--tenant", "acme", "--admin-token", ADMIN, "--json"], {
      env: { LITTLE_ADMIN_TOKEN: "wrong" },
    });
    expect(r.code).toBe(0);
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${ADMIN}`);
    expect(requests[0]?.body).toEqual({ tenant: "acme" });
    expect(JSON.parse(r.stdout)).toEqual({ token: "ltk_once_9f8e7d", tenant: "acme" });
  });

  it("a wrong admin token is exit 3 with the server's error", async () => {
    const r = await little(["token", "create", "--tenant", "acme", "--admin-token", "nope", "--json"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: "forbidden", message: "The admin token is required" } });
  });

  it.each([
    [["token", "create"], "usage"],
    [["token", "create", "--tenant", "acme"], "missing_admin_token"],
    [["token"], "usage"],
    [["token", "delete"], "usage"],
  ])("exits 2 for %j (%s)", async (args, code) => {
    const r = await little([...args, "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.code).toBe(code);
    expect(requests).toHaveLength(0);
  });
});

describe("connection and configuration errors", () => {
  it("connection refused is server_unreachable with the URL, exit 3, in both output modes", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((done) => closed.close(done));
    const human = await little(["runs"], { env: { LITTLE_URL: deadUrl } });
    expect(human.code).toBe(3);
    expect(human.stderr.trim().split("\n")).toHaveLength(1);
    expect(human.stderr).toContain(`error (server_unreachable): cannot reach the server at ${deadUrl} (ECONNREFUSED)`);
    noStack(human);
    const json = await little(["events", "run_ev", "--follow", "--json"], { env: { LITTLE_URL: deadUrl } });
    expect(json.code).toBe(3);
    const body = JSON.parse(json.stderr) as { error: { code: string; message: string; url: string } };
    expect(body.error.code).toBe("server_unreachable");
    expect(body.error.url).toBe(deadUrl);
    expect(body.error.message).toContain(deadUrl);
  }, 30_000);

  it("a malformed LITTLE_URL is exit 2", async () => {
    const r = await little(["runs", "--json"], { env: { LITTLE_URL: "not a url" } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.code).toBe("invalid_url");
  });
});

describe("little help", () => {
  it("lists every command and the options", async () => {
    const r = await little(["help"]);
    expect(r.code).toBe(0);
    for (const word of [
      "validate",
      "hash",
      "run <workflow>",
      "runs [",
      "events <run-id>",
      "versions <version-id>",
      "cancel <run-id>",
      "token create",
      "--url",
      "--token",
      "--json",
      "LITTLE_URL",
    ]) {
      expect(r.stdout).toContain(word);
    }
  });

  it("each command answers --help with its usage line", async () => {
    for (const command of [["run"], ["runs"], ["events"], ["versions"], ["cancel"], ["pause"], ["resume"], ["token", "create"]]) {
      const r = await little([...command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: little ${command.join(" ")}`));
    }
    expect(requests).toHaveLength(0);
  });
});
