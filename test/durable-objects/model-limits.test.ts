import { openai } from "@ai-sdk/openai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { capabilitiesOf } from "../../src/api/workflow-capabilities.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call } from "../api/support/api-call.ts";
import { eventsOf, waitForAll } from "../support/flow-workflows.ts";
import { result } from "../support/scripted-models.ts";

// Issue 28, shared model limits through the real path (HTTP, run objects, the model's limiter
// object): a slot with `concurrent: 3` never has more than 3 calls in flight across 20 runs, and a
// provider's 429 with `Retry-After: 2` pauses the model for every run for 2 s.

function limitedWorkflow(id: string, modelId: string, limits: { concurrent?: number; requestsPerMinute?: number }): RegisteredWorkflow {
  return {
    definition: defineWorkflow({
      id,
      description: "One drafting step on a model with shared limits.",
      input: z.object({ n: z.number() }),
      output: { mode: "json" },
      models: [model(openai(modelId), { id: "drafter", description: "Drafts.", limits })],
      planner: { model: openai("gpt-5"), system: "Not used: the runs are given their LWIR." },
    }),
    tools: {},
  };
}

async function lwirOf(registered: RegisteredWorkflow): Promise<unknown> {
  const caps = await capabilitiesOf(registered);
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: registered.definition.id, version: "0.1.0" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: ["drafter"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "draft",
        uses: "ai.generate",
        needs: [],
        with: { model: "drafter", prompt: "Draft reply {{ input.n }}." },
        output: { mode: "text" },
      },
    ],
  };
}

/** A fake provider: answers after `ms`, counting the calls in flight (and the most at once). */
function countingProvider(ms: number, failFirst?: { status: number; retryAfter: string }) {
  const seen = { inFlight: 0, most: 0, calls: [] as number[], refusedAt: 0, refusedIndex: -1, answered: 0 };
  const answer = async () => {
    seen.calls.push(Date.now());
    if (failFirst && seen.refusedAt === 0) {
      seen.refusedAt = Date.now();
      seen.refusedIndex = seen.calls.length - 1;
      throw Object.assign(new Error("rate limited"), {
        statusCode: failFirst.status,
        isRetryable: true,
        responseHeaders: { "retry-after": failFirst.retryAfter },
      });
    }
    seen.inFlight++;
    seen.most = Math.max(seen.most, seen.inFlight);
    await new Promise((done) => setTimeout(done, ms));
    seen.inFlight--;
    seen.answered++;
    return result([{ type: "text", text: "Thanks for writing; here is your reply." }]);
  };
  const provider = new MockLanguageModelV4({ provider: "openai.responses", modelId: "fake", doGenerate: answer });
  return { seen, provider };
}

afterEach(() => overrideWiring({}));

async function startAll(registered: RegisteredWorkflow, count: number): Promise<string[]> {
  const lwir = await lwirOf(registered);
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const r = await call("POST", "/v1/lwir/runs", { body: { lwir, input: { n } } });
    expect(r.status, r.text).toBe(202);
    ids.push((r.json.run as { runId: string }).runId);
  }
  return ids;
}

describe("shared model limits", () => {
  it("concurrent: 3 — 20 runs never have more than 3 calls of the model in flight", async () => {
    const modelId = `gpt-limited-${crypto.randomUUID().slice(0, 6)}`;
    const registered = limitedWorkflow("flow.model-concurrent", modelId, { concurrent: 3 });
    const { seen, provider } = countingProvider(150);
    overrideWiring({ workflows: catalogOf([registered]), models: { resolve: () => ({ model: provider, offline: false }) } });
    const ids = await startAll(registered, 20);
    expect(await waitForAll(ids)).toEqual(Array(20).fill("completed"));
    expect(seen.calls).toHaveLength(20);
    expect(seen.most).toBeLessThanOrEqual(3);
    expect(seen.most).toBeGreaterThan(1);
  });

  it("a 429 with Retry-After: 2 pauses the model for every run: no call for 2 s after it", async () => {
    const modelId = `gpt-paused-${crypto.randomUUID().slice(0, 6)}`;
    const registered = limitedWorkflow("flow.model-paused", modelId, { requestsPerMinute: 10_000 });
    const { seen, provider } = countingProvider(10, { status: 429, retryAfter: "2" });
    overrideWiring({ workflows: catalogOf([registered]), models: { resolve: () => ({ model: provider, offline: false }) } });
    const ids = await startAll(registered, 5);
    expect(await waitForAll(ids, 60_000)).toEqual(Array(5).fill("completed"));
    // Every run got its answer; the refused call was tried again. Calls are told apart by their order, not
    // their clock: two calls may enter in the same millisecond.
    expect(seen.answered).toBe(5);
    const after = seen.calls.slice(seen.refusedIndex + 1);
    expect(after.length).toBeGreaterThanOrEqual(1);
    // A call already past the limiter when the 429 came may land just after it; then none until the pause ends.
    expect(after.filter((at) => at - seen.refusedAt > 500 && at - seen.refusedAt < 1_900)).toEqual([]);
    expect(Math.max(...after)).toBeGreaterThanOrEqual(seen.refusedAt + 1_900);
  });

  it("a call waiting on the limiter shows its run waiting for rate_limit (view, list, log), then running again when it goes", async () => {
    const modelId = `gpt-waiting-${crypto.randomUUID().slice(0, 6)}`;
    const registered = limitedWorkflow("flow.model-waiting", modelId, { concurrent: 1 });
    // Each call waits until the test lets it answer. Plain counters, polled inside the call: a
    // promise made in one run object's context cannot be resolved from the test's.
    const gate = { started: 0, released: 0 };
    const provider = new MockLanguageModelV4({
      provider: "openai.responses",
      modelId: "fake",
      doGenerate: async () => {
        const mine = ++gate.started;
        while (gate.released < mine) await new Promise((done) => setTimeout(done, 10));
        return result([{ type: "text", text: "Here is your reply." }]);
      },
    });
    const inFlight = () => gate.started - gate.released;
    overrideWiring({ workflows: catalogOf([registered]), models: { resolve: () => ({ model: provider, offline: false }) } });
    const [first] = await startAll(registered, 1);
    await until(() => inFlight() === 1);
    // The slot is taken: the second run's call waits on the limiter.
    const [second] = await startAll(registered, 1);
    const waiting = await until(async () => {
      const run = (await call("GET", `/v1/runs/${second}`)).json.run as Record<string, unknown>;
      return run.waitReason === "rate_limit" ? run : null;
    });
    expect(waiting).toMatchObject({ status: "waiting", waitReason: "rate_limit" });
    const limited = (waiting.rateLimited as { stepPath: string; providerId: string; modelId: string; until: number }[])[0];
    expect(limited).toMatchObject({ providerId: "openai.responses", modelId, stepPath: expect.stringMatching(/draft$/) });
    expect(limited?.until).toBeGreaterThan(Date.now() - 5_000);
    expect(waiting.waitingUntil).toBe(limited?.until);
    const listed = (await call("GET", "/v1/runs?waitReason=rate_limit")).json.runs as { runId: string }[];
    expect(listed.map((r) => r.runId)).toContain(second);
    expect(gate.started).toBe(1);

    // The first call answers and frees the slot: the second call goes, and its run is running again.
    gate.released = 1;
    await until(() => gate.started === 2);
    const resumed = (await call("GET", `/v1/runs/${second}`)).json.run as Record<string, unknown>;
    expect(resumed).toMatchObject({ status: "running" });
    expect(resumed.rateLimited).toBeUndefined();
    const stillListed = (await call("GET", "/v1/runs?waitReason=rate_limit")).json.runs as { runId: string }[];
    expect(stillListed.map((r) => r.runId)).not.toContain(second);
    gate.released = 2;
    expect(await waitForAll([first as string, second as string])).toEqual(["completed", "completed"]);

    // The log tells it: one wait, lifted before the call's answer; the first run never waited.
    const types = (await eventsOf(second as string)).map((e) => e.type);
    const waitAt = types.indexOf("ModelRateLimited");
    expect(types.filter((t) => t === "ModelRateLimited")).toHaveLength(1);
    expect(waitAt).toBeGreaterThan(types.indexOf("harness.model.called"));
    expect(types.indexOf("ModelRateLimitLifted")).toBeGreaterThan(waitAt);
    expect(types.indexOf("ModelRateLimitLifted")).toBeLessThan(types.indexOf("harness.model.responded"));
    expect((await eventsOf(first as string)).some((e) => e.type.startsWith("ModelRateLimit"))).toBe(false);
  });
});

/** Resolves with the first truthy answer of `check`, asked every 20 ms (at most 30 s). */
async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const answer = await check();
    if (answer) return answer as NonNullable<T>;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error("the condition did not hold within 30 s");
}
