/** A small client for the /v1 API of a running `wrangler dev`, as a user's program would call it. */
import { expect } from "vitest";
import { sleep } from "./wrangler-dev.ts";

export type ApiError = { code: string; message: string; findings?: { path: string; code: string }[] };
export type Json = Record<string, unknown> & { error?: ApiError };
export type Run = {
  runId: string;
  status: string;
  versionId?: string;
  output?: unknown;
  cause?: { code: string; message: string };
  eventCount: number;
  workflowId: string | null;
};
export type RunEvent = { seq: number; runId: string; type: string; at: number; payload: Record<string, unknown> };
export type Answer = { status: number; headers: Headers; text: string; json: Json };

export type CallOptions = {
  /** The bearer token; `null` sends none. */
  readonly token?: string | null;
  readonly body?: unknown;
  /** A body sent as is. */
  readonly raw?: string;
  readonly headers?: Readonly<Record<string, string>>;
};

export const SEED_WORKFLOW = "support.summarize-ticket";
export const INPUT = { ticketId: "T-42", transcript: "The dashboard shows a 500 error since the upgrade." };
const ENDED = new Set(["completed", "failed", "cancelled"]);

/** Calls one route of the API at `base`. */
export function client(base: string, defaultToken: string) {
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? defaultToken : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    const body = options.body !== undefined ? JSON.stringify(options.body) : options.raw;
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let json: Json = {};
    if ((res.headers.get("content-type") ?? "").includes("json") && text !== "") json = JSON.parse(text) as Json;
    return { status: res.status, headers: res.headers, text, json };
  }

  /** Polls `GET /v1/runs/:id` every `everyMs` until the run has ended. */
  async function pollUntilEnded(
    runId: string,
    options: { token?: string; everyMs?: number; timeoutMs?: number } = {},
  ): Promise<{ run: Run; polls: number }> {
    const until = Date.now() + (options.timeoutMs ?? 30_000);
    for (let polls = 1; ; polls++) {
      const r = await call("GET", `/v1/runs/${runId}`, { token: options.token ?? defaultToken });
      expect(r.status, r.text).toBe(200);
      const run = runOf(r);
      if (ENDED.has(run.status)) return { run, polls };
      if (Date.now() > until) throw new Error(`run ${runId} did not end in time; last seen ${r.text}`);
      await sleep(options.everyMs ?? 200);
    }
  }

  /** The whole event log of a run, page by page. */
  async function events(runId: string, token = defaultToken): Promise<RunEvent[]> {
    const all: RunEvent[] = [];
    let after = 0;
    for (;;) {
      const r = await call("GET", `/v1/runs/${runId}/events?after=${after}&limit=1000`, { token });
      expect(r.status, r.text).toBe(200);
      const page = r.json.events as RunEvent[];
      all.push(...page);
      const next = r.json.nextAfter as number | null;
      if (next === null) return all;
      after = next;
    }
  }

  return { call, pollUntilEnded, events };
}

export const runOf = (answer: Answer): Run => answer.json.run as Run;

/** An error answer in the API's one shape: a stable code, a message, and no stack trace. */
export function expectApiError(answer: Answer, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toContain("application/json");
  expect(answer.json.error?.code, answer.text).toBe(code);
  expect(typeof answer.json.error?.message).toBe("string");
  expect(answer.json.error?.message.length).toBeGreaterThan(0);
  expect(answer.text).not.toMatch(/\n\s+at |\bat .*\.(ts|js):\d+/);
  expect(answer.text).not.toMatch(/"stack"/);
}

/**
 * LWIR for the registered `billing.refund` example: one `tool.call` of its approval-gated refund
 * tool, bound to the workflow's schemas as `GET /v1/workflows` serves them (no planner).
 */
export async function refundLwir(api: ReturnType<typeof client>): Promise<Record<string, unknown>> {
  const catalog = await api.call("GET", "/v1/workflows");
  const refund = (catalog.json.workflows as { id: string; inputSchema: unknown; requestedOutput: { schema: unknown } }[]).find(
    (w) => w.id === "billing.refund",
  );
  if (!refund) throw new Error("billing.refund is not registered");
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "billing.refund", version: "0.1.0", description: "refund after approval" },
    input: { schema: refund.inputSchema },
    output: { schema: refund.requestedOutput.schema },
    permissions: { models: [], tools: ["billing.issue-refund"], secrets: [], network: [] },
    steps: [
      {
        id: "refund",
        uses: "tool.call",
        needs: [],
        with: { tool: "billing.issue-refund", input: { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" } },
        output: refund.requestedOutput,
      },
    ],
  };
}
