/**
 * Live model output over HTTP (issue 30, docs/observability.md "Live model output"): a real
 * `wrangler dev` with `LITTLE_MODELS=live` and the fake OpenAI Responses server streaming the
 * worker's answer in 50 chunks 20 ms apart. Asserted through the typed client's `streamRun`, raw
 * SSE with `Last-Event-ID`, and the inspector in Chromium: deltas arrive before the step ends, in
 * order, a late client gets the text so far first, a resume repeats no event, and the journaled
 * answer equals the deltas joined.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelDelta } from "../../src/client/index.ts";
import { SseParser } from "../../src/client/sse-parser.ts";
import { launchChromium, signIn } from "../inspector/browser.ts";
import { client, INPUT, type RunEvent, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { type FakeProvider, type FakeRequest, startFakeProvider } from "./support/fake-provider.ts";
import { deltasOf, longSummary, pacedJsonTurn, readRunStream, recordedText, wholeTexts } from "./support/live-output.ts";
import { bashTurn, submitTurn, WORKER_SLOT } from "./support/live-provider-runs.ts";
import { sleep, startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let fake: FakeProvider;
let dev: WranglerDev;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  fake = await startFakeProvider();
  dev = await startWranglerDev({
    vars: { LITTLE_MODELS: "live", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${fake.url}/v1` },
  });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
  await fake?.close();
});

/** Scripts a run: the planner's two turns, then the worker's paced answer; starts it without waiting. */
async function startPacedRun(tag: string, delayMs = 20) {
  const value = longSummary(tag);
  const turn = pacedJsonTurn(value, 50, delayMs);
  fake.enqueue("gpt-5", bashTurn, submitTurn);
  fake.enqueue(WORKER_SLOT, turn);
  const since = fake.requests.length;
  const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: tag } } });
  expect(r.status, r.text).toBe(202);
  const workerRequest = async (): Promise<FakeRequest> => {
    for (;;) {
      const found = fake.requests.slice(since).find((q) => q.model === WORKER_SLOT);
      if (found) return found;
      await sleep(10);
    }
  };
  return { runId: runOf(r).runId, value, text: turn.text, workerRequest };
}

const responded = (events: readonly RunEvent[], callId: string) =>
  events.find((e) => e.type === "harness.model.responded" && e.payload.callId === callId);

describe("GET /v1/runs/{runId}/stream: live model output", () => {
  it("streams the worker's answer as the provider writes it: before the step ends, in order, equal to the journaled answer", async () => {
    const run = await startPacedRun("T-live-1");
    const items = await readRunStream(dev.url, dev.devToken, run.runId);
    const worker = await run.workerRequest();

    const events = items.flatMap((i) => (i.type === "event" ? [i.event] : []));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe("RunCompleted");
    const logged = await api.events(run.runId);
    expect(events.map((e) => e.type)).toEqual(logged.map((e) => e.type));

    const workerDeltas = deltasOf(items).filter((d) => d.role === "worker" && d.channel === "text");
    expect(workerDeltas).toHaveLength(50);
    const callId = workerDeltas[0]?.callId as string;
    expect(workerDeltas.every((d) => d.callId === callId && d.call === 1 && typeof d.stepPath === "string")).toBe(true);
    // In order: each delta starts where the text so far ends.
    let whole = "";
    for (const d of workerDeltas) {
      expect(d.offset).toBe(whole.length);
      whole += d.text;
    }
    expect(whole).toBe(run.text);
    // The journaled answer is the deltas joined; the run's output is the object they spell.
    const answer = responded(logged, callId);
    expect(recordedText(answer?.payload.response)).toBe(whole);
    expect((await api.call("GET", `/v1/runs/${run.runId}`)).json.run).toMatchObject({ status: "completed", output: run.value });
    // Structured output: the partial object grows with the text.
    expect(workerDeltas.at(-1)?.partial).toEqual(run.value);
    expect((workerDeltas[25]?.partial as { summary?: string } | undefined)?.summary).toMatch(/^T-live-1: /);

    // Before the step ends: every delta precedes the call's answer and the step's end in the stream,
    // and the first reached the client before the provider had written its last chunk.
    const indexOf = (predicate: (i: (typeof items)[number]) => boolean) => items.findIndex(predicate);
    const lastDelta = items.lastIndexOf(
      items.filter((i) => i.type === "delta" && i.delta.callId === callId).at(-1) as (typeof items)[number],
    );
    const answerAt = indexOf((i) => i.type === "event" && i.event.seq === answer?.seq);
    const stepEnd = indexOf((i) => i.type === "event" && i.event.type === "StepSucceeded");
    expect(lastDelta).toBeLessThan(answerAt);
    expect(answerAt).toBeLessThan(stepEnd);
    expect(worker.chunkSentAt).toHaveLength(50);
    expect(workerDeltas[0]?.receivedAt).toBeLessThan(worker.chunkSentAt.at(-1) as number);
    expect(workerDeltas[10]?.receivedAt).toBeLessThan(worker.chunkSentAt.at(-1) as number);

    // The planner's turns stream too: its text, and submit_lwir's arguments as they are written.
    const planner = deltasOf(items).filter((d) => d.role === "planner");
    expect(planner.some((d) => d.channel === "text" && d.stepPath === null)).toBe(true);
    expect(planner.some((d) => d.channel === "tool-input")).toBe(true);
  }, 90_000);

  it("gives a client that connects late the text so far first, then the rest", async () => {
    const run = await startPacedRun("T-live-late");
    const worker = await run.workerRequest();
    while (worker.chunkSentAt.length < 20) await sleep(5);
    const items = await readRunStream(dev.url, dev.devToken, run.runId);
    const workerDeltas = deltasOf(items).filter((d) => d.role === "worker" && d.channel === "text");
    const first = workerDeltas[0];
    expect(first?.offset).toBe(0);
    // The text so far came in one message: at least the 20 chunks written before the client connected.
    expect(first?.text.length).toBeGreaterThanOrEqual(Math.floor((20 * run.text.length) / 50));
    expect(workerDeltas.length).toBeLessThan(50);
    const whole = wholeTexts(workerDeltas).get(`${first?.callId} text`);
    expect(whole).toBe(run.text);
    const logged = await api.events(run.runId);
    expect(recordedText(responded(logged, first?.callId as string)?.payload.response)).toBe(run.text);
  }, 90_000);

  it("resumes after Last-Event-ID: no event twice, the text so far again at offset 0", async () => {
    const run = await startPacedRun("T-live-resume", 40);
    const worker = await run.workerRequest();
    while (worker.chunkSentAt.length < 5) await sleep(5);
    const first = await readSse(run.runId, undefined, (seen) => seen.deltas.length >= 10);
    expect(first.lastId).toBeGreaterThan(0);
    const before = wholeTexts(first.deltas).get(`${first.deltas[0]?.callId} text`) ?? "";
    expect(before.length).toBeGreaterThan(0);

    const second = await readSse(run.runId, first.lastId, () => false);
    expect(second.ids[0]).toBe(first.lastId + 1);
    // Still in flight when we came back (1.6 s of the answer were left): its text so far first, at
    // offset 0, extending what we had.
    const resent = second.deltas.find((d) => d.callId === first.deltas[0]?.callId);
    expect(resent?.offset).toBe(0);
    expect(resent?.text.startsWith(before)).toBe(true);
    const whole = wholeTexts([...first.deltas, ...second.deltas]).get(`${first.deltas[0]?.callId} text`);
    expect(whole).toBe(run.text);
    const logged = await api.events(run.runId);
    expect([...first.ids, ...second.ids]).toEqual(logged.map((e) => e.seq));
  }, 90_000);

  it("shows the running step's text in the inspector before the step ends", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await signIn(page, dev.url, dev.devToken);
      const run = await startPacedRun("T-live-inspector", 60);
      await page.goto(`${dev.url}/runs/${run.runId}`);
      const live = page.locator(".live-call[data-step-path]:not([data-step-path='']) pre.live-text");
      await live.first().waitFor({ timeout: 60_000 });
      // Polled from here: the page's CSP refuses the evaluated predicates of waitForFunction.
      await expect
        .poll(async () => ((await live.first().textContent()) ?? "").length, { interval: 20, timeout: 30_000 })
        .toBeGreaterThan(30);
      const shown = (await live.first().textContent()) ?? "";
      const worker = await run.workerRequest();
      // Seen while the provider was still writing: the step had not ended.
      expect(worker.chunkSentAt.length).toBeLessThan(50);
      expect(run.text.startsWith(shown)).toBe(true);
      expect((await api.call("GET", `/v1/runs/${run.runId}`)).json.run).toMatchObject({ status: "running" });
      // When the answer is logged the panel goes; the run's output shows instead.
      await page.locator("#run-output").waitFor({ timeout: 60_000 });
      expect(await page.locator("#live-output").isHidden()).toBe(true);
      expect(await page.locator("#trace-id").textContent()).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await browser.close();
    }
  }, 120_000);
});

type Seen = { ids: number[]; lastId: number; deltas: ModelDelta[] };

/** Reads `/stream` raw (optionally with `Last-Event-ID`) until `stop` says so or the stream ends. */
async function readSse(runId: string, lastEventId: number | undefined, stop: (seen: Seen) => boolean): Promise<Seen> {
  const controller = new AbortController();
  const res = await fetch(`${dev.url}/v1/runs/${runId}/stream`, {
    headers: { authorization: `Bearer ${dev.devToken}`, ...(lastEventId !== undefined ? { "last-event-id": String(lastEventId) } : {}) },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const seen: Seen = { ids: [], lastId: lastEventId ?? 0, deltas: [] };
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return seen;
      for (const message of parser.push(decoder.decode(chunk.value, { stream: true }))) {
        if (message.event === "delta") seen.deltas.push(JSON.parse(message.data));
        else {
          seen.ids.push(Number(message.id));
          seen.lastId = Number(message.id);
        }
        if (stop(seen)) return seen;
      }
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }
}
