/**
 * The client (src/client/) against the real Worker inside workerd: its fetch is the Worker's own
 * (`exports.default.fetch`), so every call crosses the real app, auth, D1 and the run object.
 */
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { createClient, LittleClientError, type RunEvent } from "../../src/client/index.ts";
import { overrideWiring } from "../../src/wiring.ts";

const INPUT = { ticketId: "T-9", transcript: "The export button does nothing." };
const WORKFLOW = "support.summarize-ticket";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

const worker = (input: Request | string | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init));
const client = createClient({ baseUrl: "http://little.test", token: "test-dev-token", fetch: worker });

async function failure(call: Promise<unknown>): Promise<LittleClientError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof LittleClientError) return error;
    throw error;
  }
  throw new Error("the call did not fail");
}

describe("createClient against the Worker", () => {
  it("starts a run, streams its events to the terminal one, and reads it back", async () => {
    const { run, links } = await client.startRun(WORKFLOW, INPUT, { runId: "run_client_1" });
    expect(run.runId).toBe("run_client_1");
    expect(links.stream).toBe("http://little.test/v1/runs/run_client_1/events/stream");
    const events: RunEvent[] = [];
    for await (const event of client.events(run.runId)) events.push(event);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe("RunRequested");
    const last = events.at(-1);
    expect(last?.type).toBe("RunCompleted");
    if (last?.type === "RunCompleted") expect(last.payload.output).toMatchObject({ severity: expect.any(String) });
    const got = await client.getRun(run.runId);
    expect(got.run).toMatchObject({ status: "completed", versionId: expect.stringMatching(/^wfver_/) });
    // Resumed past the terminal event: the stream closes at once and the iteration ends.
    const after: RunEvent[] = [];
    for await (const event of client.events(run.runId, { after: last?.seq ?? 0 })) after.push(event);
    expect(after).toEqual([]);
    const page = await client.listEvents(run.runId, { after: 1, limit: 2 });
    expect(page.events.map((e) => e.seq)).toEqual([2, 3]);
    expect(page.nextAfter).toBe(3);
  });

  it("waits with startRun({ wait }), lists and cancels", async () => {
    const { run } = await client.startRun(WORKFLOW, INPUT, { wait: 20, idempotencyKey: "client-key-1" });
    expect(run.status).toBe("completed");
    const again = await client.startRun(WORKFLOW, INPUT, { idempotencyKey: "client-key-1" });
    expect(again.run.runId).toBe(run.runId);
    const page = await client.listRuns({ workflow: WORKFLOW, status: "completed", limit: 200 });
    expect(page.runs.map((r) => r.runId)).toContain(run.runId);
    expect((await client.cancel(run.runId)).run.status).toBe("completed");
    const workflows = await client.listWorkflows();
    expect(workflows.workflows.map((w) => w.id)).toContain(WORKFLOW);
  });

  it("turns API errors into LittleClientError with the stable code, status and findings", async () => {
    const missing = await failure(client.getRun("run_nope"));
    expect(missing).toMatchObject({ name: "LittleClientError", code: "run_not_found", status: 404 });
    const bad = await failure(client.startRun(WORKFLOW, { ticketId: 9 }));
    expect(bad).toMatchObject({ code: "input_schema_error", status: 422 });
    expect(bad.findings.length).toBeGreaterThan(0);
    const conflict = await failure(client.startRun(WORKFLOW, { ...INPUT, ticketId: "T-10" }, { idempotencyKey: "client-key-1" }));
    expect(conflict).toMatchObject({ code: "idempotency_conflict", status: 409 });
    const unauthorized = await failure(createClient({ baseUrl: "http://little.test", token: "wrong", fetch: worker }).listRuns());
    expect(unauthorized).toMatchObject({ code: "unauthorized", status: 401 });
    const stream = await failure(client.events("run_nope").next());
    expect(stream).toMatchObject({ code: "run_not_found", status: 404 });
  });

  it("names failures on the wire: unreachable, timeout, and a body that is not the API's JSON", async () => {
    const refused = createClient({ baseUrl: "http://little.test", fetch: () => Promise.reject(new TypeError("Network connection lost.")) });
    expect(await failure(refused.getRun("r"))).toMatchObject({ code: "server_unreachable", status: undefined });
    const slow = createClient({
      baseUrl: "http://little.test",
      timeoutMs: 20,
      fetch: (_input, init) =>
        new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true })),
    });
    expect(await failure(slow.getRun("r"))).toMatchObject({ code: "server_timeout" });
    const html = createClient({ baseUrl: "http://little.test", fetch: async () => new Response("<html>502</html>", { status: 502 }) });
    expect(await failure(html.getRun("r"))).toMatchObject({ code: "bad_response", status: 502 });
    const quota = createClient({
      baseUrl: "http://little.test",
      fetch: async () =>
        Response.json({ error: { code: "quota_exceeded", message: "slow down" } }, { status: 429, headers: { "retry-after": "7" } }),
    });
    expect(await failure(quota.startRun(WORKFLOW, INPUT))).toMatchObject({ code: "quota_exceeded", status: 429, retryAfterSeconds: 7 });
  });

  it("reconnects with Last-Event-ID after a dropped stream and never yields an event twice", async () => {
    const { run } = await client.startRun(WORKFLOW, INPUT, { wait: 20 });
    const seen: (string | null)[] = [];
    let streams = 0;
    // The first stream is cut after its third event; the client resumes after it.
    const flaky = async (input: Request | string | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (!request.url.endsWith("/events/stream")) return worker(request);
      seen.push(request.headers.get("last-event-id"));
      const response = await worker(request);
      if (streams++ > 0 || !response.body) return response;
      // Forwards the stream's comment and its first three events whole, then fails the connection.
      const text = await response.text();
      const frames = text.split("\n\n");
      const kept = `${frames.slice(0, 4).join("\n\n")}\n\n`;
      expect(frames.length).toBeGreaterThan(5);
      const cut = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(kept));
        },
        pull(controller) {
          controller.error(new TypeError("connection reset"));
        },
      });
      return new Response(cut, { headers: response.headers });
    };
    const events: RunEvent[] = [];
    for await (const event of createClient({ baseUrl: "http://little.test", token: "test-dev-token", fetch: flaky }).events(run.runId))
      events.push(event);
    expect(seen[0]).toBeNull();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[1]).toBe("3");
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe("RunCompleted");
  });
});
