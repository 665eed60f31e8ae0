import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { openai } from "@ai-sdk/openai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { resolverFor, result } from "../support/scripted-models.ts";
import { stepsLwir } from "../support/wait-lwir.ts";
import { call, runEvents, tenantToken } from "./support/api-call.ts";

/** Two ai.generate steps in a chain: a pause while the first one's model call is in flight must stop the second from starting. */
const chain: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.pause-chain",
    description: "Drafts, then refines.",
    input: z.object({ text: z.string() }),
    output: z.object({ summary: z.string() }),
    models: [model(openai("gpt-4o-mini"), { description: "Writes." })],
    planner: { model: openai("gpt-5"), system: "Plan two steps." },
  }),
  tools: {},
};

const sleeping: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.pause-sleep",
    description: "Sleeps.",
    input: z.object({}),
    output: z.looseObject({ wokeAt: z.string() }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a sleep." },
  }),
  tools: {},
};

afterEach(() => overrideWiring({}));

const summary = { mode: "object", schema: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] } };

async function chainLwir(): Promise<Record<string, unknown>> {
  const lwir = await stepsLwir(chain, [
    { id: "draft", uses: "ai.generate", with: { model: "gpt-4o-mini", prompt: "Draft: {{ input.text }}" }, output: summary },
    {
      id: "refine",
      uses: "ai.generate",
      needs: ["draft"],
      with: { model: "gpt-4o-mini", prompt: "Refine: {{ steps.draft.output.summary }}" },
      output: summary,
    },
  ]);
  return { ...lwir, permissions: { ...(lwir.permissions as object), models: ["gpt-4o-mini"] } };
}

/** A worker model whose first call is held until the test lets it answer. */
function heldWorker() {
  const held = { calls: 0, inFlight: false, release: () => {} };
  const released = new Promise<void>((resolve) => {
    held.release = resolve;
  });
  const worker = new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    doGenerate: async () => {
      held.calls += 1;
      if (held.calls === 1) {
        held.inFlight = true;
        await released;
      }
      return result([{ type: "text", text: JSON.stringify({ summary: `answer ${held.calls}` }) }]);
    },
  });
  return { held, worker };
}

type View = Record<string, unknown> & { status: string; waitReason?: string };

async function start(lwir: Record<string, unknown>, input: unknown, token?: string): Promise<string> {
  const r = await call("POST", "/v1/lwir/runs", { body: { lwir, input }, ...(token ? { token } : {}) });
  expect(r.status, r.text).toBe(202);
  return (r.json.run as { runId: string }).runId;
}

/** Polls (waiting on the run object, never sleeping) until `test` holds. */
async function until<T>(runId: string, read: () => Promise<T>, test: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (test(value)) return value;
    await runStub(runId, "dev").waitForEnd(20);
  }
  throw new Error(`run ${runId} never got there`);
}

const viewOf = async (runId: string) => (await call("GET", `/v1/runs/${runId}`)).json.run as View;
const alarmOf = (runId: string) => runInDurableObject(rawRunStub(runId, "dev"), (_o, state) => state.storage.getAlarm());

describe("pause and resume over HTTP, through the run object and D1", () => {
  it("a pause mid-call lets the call finish and be recorded, starts no new step, sets no alarm; resume finishes the run", async () => {
    const { held, worker } = heldWorker();
    overrideWiring({ models: resolverFor(worker, worker), workflows: catalogOf([chain]) });
    const runId = await start(await chainLwir(), { text: "I was charged twice." });
    await until(runId, async () => held.inFlight, Boolean);

    const paused = await call("POST", `/v1/runs/${runId}/pause`);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.run).toMatchObject({ runId, status: "paused", paused: { by: "dev-token" } });

    held.release();
    // The call in flight answers and is recorded; then the slice yields with no alarm.
    const events = await until(
      runId,
      () => runEvents(runId),
      (es) => es.some((e) => e.type === "StepSucceeded" && e.payload.stepPath === "c1/draft"),
    );
    await until(
      runId,
      () => alarmOf(runId),
      (alarm) => alarm === null,
    );
    const afterPause = events.slice(events.findIndex((e) => e.type === "RunPaused"));
    expect(afterPause.map((e) => e.type)).toContain("harness.model.responded");
    expect(afterPause.some((e) => e.type === "StepStarted" || e.type === "harness.model.called")).toBe(false);
    expect(held.calls).toBe(1);
    expect(await runDurableObjectAlarm(rawRunStub(runId, "dev"))).toBe(false);
    expect((await viewOf(runId)).status).toBe("paused");
    const listed = (await call("GET", "/v1/runs?status=paused&limit=200")).json.runs as { runId: string; status: string }[];
    expect(listed.find((r) => r.runId === runId)?.status).toBe("paused");

    // Pausing again answers the run as it is; nothing more is logged.
    const again = await call("POST", `/v1/runs/${runId}/pause`);
    expect(again.status).toBe(200);
    expect((await runEvents(runId)).filter((e) => e.type === "RunPaused")).toHaveLength(1);

    const resumed = await call("POST", `/v1/runs/${runId}/resume`);
    expect(resumed.status, resumed.text).toBe(200);
    expect((resumed.json.run as View).status).not.toBe("paused");
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", output: { summary: "answer 2" } });
    expect(held.calls).toBe(2);
    const types = (await runEvents(runId)).map((e) => e.type);
    expect(types.filter((t) => t === "RunResumed")).toHaveLength(1);
    expect(types.indexOf("RunResumed")).toBeLessThan(types.lastIndexOf("StepStarted"));

    // An ended run refuses both, and resuming a run that is not paused answers it unchanged.
    expect((await call("POST", `/v1/runs/${runId}/pause`)).json.error?.code).toBe("run_ended");
    const late = await call("POST", `/v1/runs/${runId}/resume`);
    expect([late.status, late.json.error?.code]).toEqual([409, "run_ended"]);
  });

  it("a sleep whose deadline passes while paused keeps its recorded deadline and wakes on the resume", async () => {
    let skipped = 0;
    const clock = { now: () => Date.now() + skipped };
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([sleeping]), clock });
    const runId = await start(await stepsLwir(sleeping, [{ id: "nap", uses: "wait.sleep", with: { durationMs: 60_000 } }]), {});
    const waiting = await until(
      runId,
      () => viewOf(runId),
      (v) => v.waitReason === "sleep",
    );
    const deadline = waiting.waitingUntil as number;

    expect((await call("POST", `/v1/runs/${runId}/pause`)).status).toBe(200);
    expect(await alarmOf(runId)).toBeNull();
    skipped = 120_000;
    // Past the deadline, nothing wakes a paused run: no alarm, the same log.
    expect(await runDurableObjectAlarm(rawRunStub(runId, "dev"))).toBe(false);
    const before = (await runEvents(runId)).length;
    expect(await viewOf(runId)).toMatchObject({ status: "paused", waitingUntil: deadline });

    await call("POST", `/v1/runs/${runId}/resume`);
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended.status).toBe("completed");
    expect(Date.parse((ended.output as { wokeAt: string }).wokeAt)).toBeGreaterThanOrEqual(deadline);
    const events = await runEvents(runId);
    expect(events.length).toBeGreaterThan(before);
    expect(events.filter((e) => e.type === "WaitStarted")).toHaveLength(1);
  });

  it("cancels a paused run; another tenant's pause is 404; a read-only token is 403", async () => {
    const { held, worker } = heldWorker();
    overrideWiring({ models: resolverFor(worker, worker), workflows: catalogOf([chain]) });
    const runId = await start(await chainLwir(), { text: "x" });
    await until(runId, async () => held.inFlight, Boolean);
    expect((await call("POST", `/v1/runs/${runId}/pause`)).status).toBe(200);
    const other = await tenantToken(`pause-other-${crypto.randomUUID().slice(0, 8)}`);
    expect((await call("POST", `/v1/runs/${runId}/resume`, { token: other })).json.error?.code).toBe("run_not_found");
    const reader = await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant: "dev", scopes: ["runs:read"] } });
    const denied = await call("POST", `/v1/runs/${runId}/resume`, { token: reader.json.token as string });
    expect([denied.status, denied.json.error?.code]).toEqual([403, "insufficient_scope"]);
    const cancelled = await call("POST", `/v1/runs/${runId}/cancel`);
    expect((cancelled.json.run as View).status).toBe("cancelled");
    held.release();
    expect((await runStub(runId, "dev").waitForEnd(5_000)).status).toBe("cancelled");
  });
});

describe("tags and progress through HTTP, the run object and D1", () => {
  it("stores a start's tags (in RunRequested, the view, the index) and filters ?tag= with AND; shows progress", async () => {
    const { held, worker } = heldWorker();
    held.release();
    overrideWiring({ models: resolverFor(worker, worker), workflows: catalogOf([chain]) });
    const team = `t${crypto.randomUUID().slice(0, 8)}`;
    const lwir = await chainLwir();
    const one = await call("POST", "/v1/lwir/runs", { body: { lwir, input: { text: "a" }, tags: { team, env: "prod" } } });
    const two = await call("POST", "/v1/lwir/runs", { body: { lwir, input: { text: "b" }, tags: { team, env: "dev" } } });
    expect([one.status, two.status]).toEqual([202, 202]);
    const first = (one.json.run as { runId: string }).runId;
    const second = (two.json.run as { runId: string }).runId;
    expect(one.json.run).toMatchObject({ tags: { team, env: "prod" }, progress: { stepsTotal: null, stepsEnded: 0 } });
    const ended = await runStub(first, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", tags: { team, env: "prod" }, progress: { stepsTotal: 2, stepsEnded: 2 } });
    await runStub(second, "dev").waitForEnd(10_000);
    expect((await runEvents(first))[0]?.payload.tags).toEqual({ team, env: "prod" });

    const list = async (query: string) =>
      ((await call("GET", `/v1/runs?${query}&limit=200`)).json.runs as { runId: string; tags?: unknown; progress?: unknown }[]).map(
        (r) => r.runId,
      );
    expect((await list(`tag=team:${team}`)).sort()).toEqual([first, second].sort());
    expect(await list(`tag=team:${team}&tag=env:prod`)).toEqual([first]);
    expect(await list(`tag=team:${team}&tag=env:staging`)).toEqual([]);
    const row = ((await call("GET", `/v1/runs?tag=team:${team}&tag=env:prod`)).json.runs as Record<string, unknown>[])[0];
    expect(row).toMatchObject({ tags: { team, env: "prod" }, progress: { stepsTotal: 2, stepsEnded: 2 } });
    expect((await call("GET", "/v1/runs?tag=no-colon")).json.error?.code).toBe("invalid_request");
  });

  it("refuses bad tags with 422 run_tags_invalid, storing nothing; other tags on a repeat are a conflict", async () => {
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([sleeping]) });
    const lwir = await stepsLwir(sleeping, [{ id: "nap", uses: "wait.sleep", with: { durationMs: 1 } }]);
    const runId = `tags_${crypto.randomUUID().slice(0, 8)}`;
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
    for (const tags of [tooMany, { "bad key": "v" }, { k: "x".repeat(65) }, { k: 1 }]) {
      const r = await call("POST", "/v1/lwir/runs", { body: { lwir, input: {}, runId, tags } });
      expect([r.status, r.json.error?.code], JSON.stringify(tags).slice(0, 40)).toEqual(
        typeof tags.k === "number" ? [400, "invalid_request"] : [422, "run_tags_invalid"],
      );
    }
    expect((await call("GET", `/v1/runs/${runId}`)).status).toBe(404);
    const first = await call("POST", "/v1/lwir/runs", { body: { lwir, input: {}, runId, tags: { a: "1" } } });
    expect(first.status).toBe(202);
    const again = await call("POST", "/v1/lwir/runs", { body: { lwir, input: {}, runId, tags: { a: "1" } } });
    expect(again.status).not.toBe(409);
    const other = await call("POST", "/v1/lwir/runs", { body: { lwir, input: {}, runId, tags: { a: "2" } } });
    expect([other.status, other.json.error?.code]).toEqual([409, "run_id_conflict"]);
  });
});
