import { runDurableObjectAlarm } from "cloudflare:test";
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { toolCallLwir } from "../support/tool-call-lwir.ts";
import { call } from "./support/api-call.ts";

/** Calls of the flaky tool by key: the first call of each key fails (retriable), the next succeeds. */
const calls = new Map<string, number>();

const flakyWorkflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "wait.flaky",
    description: "Call a tool that fails once, then works.",
    input: z.object({ key: z.string() }),
    output: z.object({ ok: z.boolean() }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan one call." },
    tools: {
      flaky: tool({
        description: "Fails on its first call for a key",
        inputSchema: z.object({ key: z.string() }),
        outputSchema: z.object({ ok: z.boolean() }),
        execute: async ({ key }: { key: string }) => {
          const n = (calls.get(key) ?? 0) + 1;
          calls.set(key, n);
          if (n === 1) throw Object.assign(new Error("flaky: try again"), { retriable: true });
          return { ok: true };
        },
      }),
    },
  }),
  tools: {},
};

/** The run's clock: real time plus what a test skips ahead (the alarm is then run by hand). */
let skipped = 0;
const clock = { now: () => Date.now() + skipped };

beforeEach(() => {
  skipped = 0;
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([flakyWorkflow]), clock });
});
afterEach(() => overrideWiring({}));

type RunBody = { runId: string; status: string; waitReason?: string; waitingUntil?: number };

const BACKOFF_MS = 60_000;

describe("a run sleeping before a retry", () => {
  it("is waiting for `sleep` until the retry is due, in the run view and the run index; then it runs and completes", async () => {
    const key = crypto.randomUUID().slice(0, 8);
    const lwir = await toolCallLwir(flakyWorkflow, "flaky", { key: "{{ input.key }}" });
    (lwir.steps as Record<string, unknown>[])[0] = {
      ...(lwir.steps as Record<string, unknown>[])[0],
      retry: { maxAttempts: 2, backoffMs: BACKOFF_MS },
    };
    const started = await call("POST", "/v1/lwir/runs", { body: { lwir, input: { key } } });
    expect(started.status).toBe(202);
    const { runId } = started.json.run as RunBody;

    // The first attempt fails; the backoff is longer than a slice sleeps, so the slice ends.
    let view = (await call("GET", `/v1/runs/${runId}`)).json.run as RunBody;
    for (let i = 0; i < 50 && view.waitReason !== "sleep"; i++) {
      await runStub(runId, "dev").waitForEnd(100);
      view = (await call("GET", `/v1/runs/${runId}`)).json.run as RunBody;
    }
    expect(view).toMatchObject({ status: "waiting", waitReason: "sleep" });
    expect(view.waitingUntil).toBeGreaterThanOrEqual(clock.now() + BACKOFF_MS / 2);
    // A sleep is mid-work: a caller waiting for the end is not released by it.
    expect((await runStub(runId, "dev").waitForEnd(50)).status).toBe("waiting");

    let row: RunBody | undefined;
    for (let i = 0; i < 50 && !row; i++) {
      row = ((await call("GET", "/v1/runs?status=waiting&waitReason=sleep&limit=200")).json.runs as RunBody[]).find(
        (r) => r.runId === runId,
      );
      if (!row) await runStub(runId, "dev").waitForEnd(100);
    }
    expect(row).toMatchObject({ status: "waiting", waitReason: "sleep" });

    // The retry comes due: the alarm the slice set runs now, the step runs again and succeeds.
    skipped = (view.waitingUntil as number) - Date.now() + 1;
    await runDurableObjectAlarm(rawRunStub(runId, "dev"));
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", output: { ok: true } });
    expect(ended.waitReason).toBeUndefined();
    expect(calls.get(key)).toBe(2);
    const listed = ((await call("GET", "/v1/runs?status=completed&limit=200")).json.runs as RunBody[]).find((r) => r.runId === runId);
    expect(listed).toMatchObject({ status: "completed", waitReason: null });
  });
});
