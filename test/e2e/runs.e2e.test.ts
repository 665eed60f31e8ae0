/**
 * Runs over HTTP against a real `wrangler dev`: to completion with `?wait` and by polling, and the
 * live SSE stream with `Last-Event-ID` resumption. The offline model is slowed to 300 ms a call so
 * a run lasts about a second and the stream can be seen arriving live.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, INPUT, type RunEvent, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const LATENCY_MS = 300;
let dev: WranglerDev;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  dev = await startWranglerDev({ offlineLatencyMs: LATENCY_MS });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
});

describe("a run over HTTP", () => {
  it("runs to completion with ?wait=30 and answers 200 with output, version and links", async () => {
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } });
    expect(r.status, r.text).toBe(200);
    const run = runOf(r);
    expect(run).toMatchObject({ status: "completed", workflowId: SEED_WORKFLOW, versionId: expect.stringMatching(/^wfver_[0-9a-f]+$/) });
    expect(run.output).toEqual({ summary: expect.any(String), severity: expect.stringMatching(/^(low|medium|high)$/) });
    expect(r.json.links).toEqual({
      self: `${dev.url}/v1/runs/${run.runId}`,
      events: `${dev.url}/v1/runs/${run.runId}/events`,
      stream: `${dev.url}/v1/runs/${run.runId}/events/stream`,
    });
    expect(r.headers.get("location")).toBe(`${dev.url}/v1/runs/${run.runId}`);
    // Later reads agree with the answer.
    const got = await api.call("GET", `/v1/runs/${run.runId}`);
    expect(got.status).toBe(200);
    expect(runOf(got)).toMatchObject({ status: "completed", versionId: run.versionId, output: run.output });
  });

  it("answers 202 at once without wait, and polling GET /v1/runs/:id sees it complete", async () => {
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: "T-poll" } } });
    expect(r.status, r.text).toBe(202);
    const run = runOf(r);
    expect(run.runId).toMatch(/^run_/);
    // Answered at once: the run has not ended (three 300 ms model calls are still ahead of it).
    expect(["pending", "compiling", "running"]).toContain(run.status);
    expect(run.output).toBeUndefined();
    const { run: ended, polls } = await api.pollUntilEnded(run.runId, { everyMs: 200 });
    expect(polls).toBeGreaterThan(1);
    expect(ended).toMatchObject({ runId: run.runId, status: "completed", versionId: expect.stringMatching(/^wfver_/) });
    expect(ended.output).toEqual({ summary: "offline:summary", severity: expect.any(String) });
  });
});

type Received = RunEvent & { receivedAt: number; id: number; event: string };

/** Reads an SSE response incrementally, noting when each message arrived. */
async function readSse(res: Response): Promise<Received[]> {
  const body = res.body;
  if (!body) throw new Error("the stream has no body");
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const received: Received[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const now = Date.now();
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const fields = new Map<string, string>();
      for (const line of block.split("\n")) {
        if (line.startsWith(":") || !line.includes(":")) continue;
        const at = line.indexOf(":");
        fields.set(line.slice(0, at), line.slice(at + 1).replace(/^ /, ""));
      }
      const data = fields.get("data");
      if (data === undefined) continue; // the comment and retry preamble
      received.push({ ...(JSON.parse(data) as RunEvent), receivedAt: now, id: Number(fields.get("id")), event: fields.get("event") ?? "" });
    }
  }
  expect(buffer.trim()).toBe("");
  return received;
}

describe("the live event stream (SSE)", () => {
  it("delivers events live, in seq order 1..n ending with RunCompleted, and resumes after Last-Event-ID", async () => {
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: "T-sse" } } });
    expect(r.status, r.text).toBe(202);
    const runId = runOf(r).runId;
    const res = await fetch(`${dev.url}/v1/runs/${runId}/events/stream`, { headers: { authorization: `Bearer ${dev.devToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = await readSse(res);

    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(events.map((e) => e.id)).toEqual(seqs);
    expect(events.every((e) => e.event === e.type && e.runId === runId)).toBe(true);
    expect(events[0]?.type).toBe("RunRequested");
    const completed = events.at(-1);
    expect(completed?.type).toBe("RunCompleted");
    expect(events.filter((e) => e.type === "harness.model.responded").length).toBeGreaterThanOrEqual(3);

    // Live: the first event arrived well before the run ended (three 300 ms model calls), both by
    // our receipt clock and by the server's RunCompleted timestamp; and not all in one burst.
    const first = events[0] as Received;
    const last = completed as Received;
    expect(last.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(2 * LATENCY_MS);
    expect(first.receivedAt).toBeLessThan(last.at - LATENCY_MS);
    expect(new Set(events.map((e) => e.receivedAt)).size).toBeGreaterThanOrEqual(3);

    // The stream equals the event log.
    const log = await api.events(runId);
    expect(events.map(({ seq, type, at, payload }) => ({ seq, type, at, payload }))).toEqual(
      log.map(({ seq, type, at, payload }) => ({ seq, type, at, payload })),
    );

    // Reconnecting with Last-Event-ID k gives exactly k+1..n.
    const n = events.length;
    for (const k of [Math.floor(n / 2), n - 1]) {
      const again = await fetch(`${dev.url}/v1/runs/${runId}/events/stream`, {
        headers: { authorization: `Bearer ${dev.devToken}`, "last-event-id": String(k) },
      });
      expect(again.status).toBe(200);
      const resumed = await readSse(again);
      expect(resumed.map((e) => e.seq)).toEqual(Array.from({ length: n - k }, (_, i) => k + 1 + i));
    }
  });

  // An EventSource reconnects after RunCompleted (as browsers do, with Last-Event-ID: n): the
  // stream must end at once rather than hang.
  it("ends at once a stream resumed after the terminal event (Last-Event-ID: n)", async () => {
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, {
      body: { input: { ...INPUT, ticketId: "T-sse-end" } },
    });
    expect(runOf(r).status).toBe("completed");
    const n = runOf(r).eventCount;
    const res = await fetch(`${dev.url}/v1/runs/${runOf(r).runId}/events/stream`, {
      headers: { authorization: `Bearer ${dev.devToken}`, "last-event-id": String(n) },
      signal: AbortSignal.timeout(3_000),
    });
    expect(res.status).toBe(200);
    expect(await readSse(res)).toEqual([]);
  });
});
