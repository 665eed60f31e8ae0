import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { stepsLwir } from "../support/wait-lwir.ts";
import { call, runEvents, tenantToken } from "./support/api-call.ts";

const waiting: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.signal-wait",
    description: "Waits for a manager's decision.",
    input: z.object({ orderId: z.string() }),
    output: z.looseObject({ timedOut: z.boolean() }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a wait." },
    signals: {
      "manager.decision": {
        schema: z.object({ approved: z.boolean(), note: z.string().optional() }),
        description: "The manager approves or declines",
      },
      "order.cancelled": { schema: z.object({}), description: "The customer cancelled" },
    },
  }),
  tools: {},
};

const sleeping: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.sleep",
    description: "Sleeps.",
    input: z.object({ until: z.string().optional() }),
    output: z.looseObject({ wokeAt: z.string() }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a sleep." },
  }),
  tools: {},
};

beforeEach(() =>
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([waiting, sleeping]) }),
);
afterEach(() => overrideWiring({}));

const waitStep = (timeoutMs: number, signals = ["manager.decision"]) => ({
  id: "decision",
  uses: "wait.signal",
  with: { signals, timeoutMs },
});

async function start(workflow: RegisteredWorkflow, steps: Record<string, unknown>[], input: unknown): Promise<string> {
  const r = await call("POST", "/v1/lwir/runs", { body: { lwir: await stepsLwir(workflow, steps), input } });
  expect(r.status, r.text).toBe(202);
  return (r.json.run as { runId: string }).runId;
}

type View = Record<string, unknown> & { status: string; waitReason?: string };

/** The run once its view satisfies `test` (the alarm drives it beside the test). */
async function until(runId: string, test: (view: View) => boolean): Promise<View> {
  for (let i = 0; i < 100; i++) {
    const view = (await call("GET", `/v1/runs/${runId}`)).json.run as View;
    if (test(view)) return view;
    await runStub(runId, "dev").waitForEnd(50);
  }
  throw new Error(`run ${runId} never got there`);
}

const send = (runId: string, body: unknown, token?: string) =>
  call("POST", `/v1/runs/${runId}/signals`, { body, ...(token ? { token } : {}) });

async function indexed(runId: string, query: string): Promise<Record<string, unknown> | undefined> {
  for (let i = 0; i < 50; i++) {
    const runs = (await call("GET", `/v1/runs?${query}&limit=200`)).json.runs as Record<string, unknown>[];
    const row = runs.find((r) => r.runId === runId);
    if (row) return row;
    await runStub(runId, "dev").waitForEnd(50);
  }
  return undefined;
}

describe("wait.signal through HTTP, the run object and D1", () => {
  it("waits as `signal` with the awaited schemas, refuses bad signals storing nothing, and takes one delivery per id", async () => {
    const before = Date.now();
    const runId = await start(waiting, [waitStep(60_000)], { orderId: "o-1" });
    const view = await until(runId, (v) => v.status === "waiting");
    expect(view.waitReason).toBe("signal");
    expect(view.waitingUntil as number).toBeGreaterThanOrEqual(before + 60_000);
    expect(view.awaitingSignals).toMatchObject([{ name: "manager.decision", stepPath: "c1/decision", schema: { type: "object" } }]);
    expect(await indexed(runId, "waitReason=signal")).toMatchObject({ status: "waiting", waitReason: "signal" });

    const unknown = await send(runId, { name: "manager.approval", payload: {} });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error?.code).toBe("signal_unknown");
    expect(unknown.json.error?.message).toContain('"manager.decision", "order.cancelled"');
    const invalid = await send(runId, { name: "manager.decision", payload: { approved: "yes" } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error?.code).toBe("signal_payload_invalid");
    expect(invalid.json.error?.findings?.[0]?.path).toBe("$.approved");
    const malformed = await send(runId, { payload: {} });
    expect(malformed.status).toBe(400);
    expect((await runEvents(runId)).some((e) => e.type === "SignalReceived")).toBe(false);
    // Another tenant's run is not found.
    expect((await send(runId, { name: "manager.decision", payload: { approved: true } }, await tenantToken("other-signals"))).status).toBe(
      404,
    );

    const sent = await send(runId, { name: "manager.decision", payload: { approved: true, note: "ok" }, id: "d-1" });
    expect(sent.status, sent.text).toBe(202);
    // The waiting step took it in the send's own append: it has ended when the sender hears 202.
    expect(sent.json).toMatchObject({ created: true, signal: { id: "d-1", name: "manager.decision", consumed: true } });
    const atAnswer = await runEvents(runId);
    const received = atAnswer.findIndex((e) => e.type === "SignalReceived");
    expect(atAnswer.slice(received).map((e) => e.type)).toEqual(
      expect.arrayContaining(["SignalReceived", "SignalConsumed", "StepSucceeded"]),
    );
    expect(new Set(atAnswer.slice(received, received + 3).map((e) => (e as { at?: number }).at)).size).toBe(1);
    const again = await send(runId, { name: "manager.decision", payload: { approved: true, note: "ok" }, id: "d-1" });
    expect(again.status).toBe(202);
    expect((again.json.signal as { id: string }).id).toBe("d-1");
    expect(again.json.created).toBe(false);
    const conflict = await send(runId, { name: "manager.decision", payload: { approved: false }, id: "d-1" });
    expect(conflict.json.error?.code).toBe("signal_id_conflict");

    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({
      status: "completed",
      output: { signal: "manager.decision", payload: { approved: true, note: "ok" }, timedOut: false },
    });
    const events = await runEvents(runId);
    expect(events.filter((e) => e.type === "SignalReceived")).toHaveLength(1);
    expect(events.filter((e) => e.type === "SignalConsumed")).toMatchObject([{ payload: { signalId: "d-1", stepPath: "c1/decision" } }]);
    const listed = await call("GET", `/v1/runs/${runId}/signals`);
    expect(listed.json).toMatchObject({ signals: [{ id: "d-1", consumed: true, consumedBy: "c1/decision" }], awaiting: [] });
    expect((await indexed(runId, "status=completed"))?.waitReason).toBeNull();
    // Ended: refused, nothing stored.
    const late = await send(runId, { name: "manager.decision", payload: { approved: false } });
    expect(late.status).toBe(409);
    expect(late.json.error?.code).toBe("run_ended");
  });

  it("a run that ends between a send's checks and its append refuses it with run_ended, storing nothing", async () => {
    let raced = false;
    overrideWiring({
      models: new EnvModelResolver({ mode: "offline", secrets: {} }),
      workflows: catalogOf([waiting, sleeping]),
      // A cancel landing at that moment: written straight into the log, just before the signal's append.
      beforeAppend: (events, ctx) => {
        if (raced || !events.some((e) => e.type === "SignalReceived")) return;
        raced = true;
        ctx.storage.sql.exec(
          "INSERT INTO events (seq, type, at, payload) VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM events), 'RunCancelled', ?, ?)",
          Date.now(),
          JSON.stringify({ reason: "cancelled meanwhile" }),
        );
      },
    });
    // Paused: the signal is appended alone (a paused run's step is not ended by a command).
    const runId = await start(waiting, [waitStep(60_000)], { orderId: "o-race" });
    await until(runId, (v) => v.waitReason === "signal");
    const paused = await call("POST", `/v1/runs/${runId}/pause`, { body: {} });
    expect(paused.status, paused.text).toBe(200);
    const sent = await send(runId, { name: "manager.decision", payload: { approved: true } });
    expect(raced).toBe(true);
    expect(sent.status, sent.text).toBe(409);
    expect(sent.json.error?.code).toBe("run_ended");
    expect((await runEvents(runId)).some((e) => e.type === "SignalReceived")).toBe(false);
  });

  it("buffers signals sent before the wait and delivers the first in (FIFO) among the names it takes", async () => {
    const runId = await start(
      waiting,
      [
        { id: "nap", uses: "wait.sleep", with: { durationMs: 800 } },
        { ...waitStep(60_000, ["manager.decision", "order.cancelled"]), needs: ["nap"] },
      ],
      { orderId: "o-2" },
    );
    const first = await send(runId, { name: "order.cancelled", payload: {}, id: "c-1" });
    const second = await send(runId, { name: "manager.decision", payload: { approved: false }, id: "d-2" });
    expect(first.json).toMatchObject({ created: true, signal: { consumed: false } });
    expect(second.status).toBe(202);
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", output: { signal: "order.cancelled", payload: {}, timedOut: false } });
    const listed = (await call("GET", `/v1/runs/${runId}/signals`)).json.signals as { id: string; consumed: boolean }[];
    expect(listed.map((s) => [s.id, s.consumed])).toEqual([
      ["c-1", true],
      ["d-2", false],
    ]);
  });

  it("times out to { signal: null, timedOut: true } when no signal comes", async () => {
    const runId = await start(waiting, [waitStep(300)], { orderId: "o-3" });
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", output: { signal: null, timedOut: true } });
  });

  it("cancelling a waiting run ends it; a signal after is refused", async () => {
    const runId = await start(waiting, [waitStep(60_000)], { orderId: "o-4" });
    await until(runId, (v) => v.waitReason === "signal");
    const cancelled = await call("POST", `/v1/runs/${runId}/cancel`, { body: { reason: "no longer needed" } });
    expect(cancelled.status).toBe(200);
    expect((await until(runId, (v) => v.status !== "waiting")).status).toBe("cancelled");
    expect((await send(runId, { name: "manager.decision", payload: { approved: true } })).json.error?.code).toBe("run_ended");
  });
});

describe("the offline planner plans a wait.signal for a workflow that declares signals", () => {
  it("the planned run waits for the declared signals, and the answer is shown what arrived", async () => {
    const r = await call("POST", "/v1/workflows/test.signal-wait/runs", { body: { input: { orderId: "o-planned" } } });
    expect(r.status, r.text).toBe(202);
    const runId = (r.json.run as { runId: string }).runId;
    const view = await until(runId, (v) => v.status === "waiting" || v.status === "failed");
    expect(view.awaitingSignals).toMatchObject([{ name: "manager.decision" }, { name: "order.cancelled" }]);
    await send(runId, { name: "order.cancelled", payload: {} });
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", output: { timedOut: false } });
  });
});

describe("wait.sleep through HTTP, the run object and D1", () => {
  it("sleeps as `sleep` until its deadline, then outputs wokeAt", async () => {
    const before = Date.now();
    const runId = await start(sleeping, [{ id: "nap", uses: "wait.sleep", with: { durationMs: 600 } }], {});
    const view = await until(runId, (v) => v.status === "waiting");
    expect(view).toMatchObject({ waitReason: "sleep" });
    const deadline = view.waitingUntil as number;
    expect(deadline).toBeGreaterThanOrEqual(before + 600);
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended.status).toBe("completed");
    expect(Date.parse((ended.output as { wokeAt: string }).wokeAt)).toBeGreaterThanOrEqual(deadline);
  });

  it("until: a past instant wakes at once; text that is no instant fails the step", async () => {
    const step = { id: "nap", uses: "wait.sleep", with: { until: "{{ input.until }}" } };
    const past = await start(sleeping, [step], { until: "2020-01-01T00:00:00Z" });
    expect((await runStub(past, "dev").waitForEnd(10_000)).status).toBe("completed");
    const bad = await start(sleeping, [step], { until: "next tuesday" });
    const failed = await runStub(bad, "dev").waitForEnd(10_000);
    expect(failed).toMatchObject({ status: "failed", cause: { code: "step_failed", details: { code: "wait_until_invalid" } } });
  });
});
