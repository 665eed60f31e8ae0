import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call, tenantToken } from "../api/support/api-call.ts";
import { driveToEnd } from "../support/drive.ts";
import { stepsLwir } from "../support/wait-lwir.ts";

/**
 * A bulk `restart` over a tag filter: each failed run with the tag is restarted from its failed step
 * once (a crash between an act and its record repeats the act, which finds the run it started), and
 * runs without the tag are left alone. Driven with runDurableObjectAlarm, never by sleeping.
 */
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
/** Texts the flaky tool has refused once: it fails each text's first call, then echoes. */
const refused = new Set<string>();
const text = z.object({ text: z.string() });
const flaky: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.bulk-flaky",
    description: "Echoes the text with a tool that fails the first time.",
    input: text,
    output: z.looseObject({}),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Call the tool." },
    tools: {
      flaky: tool({
        description: "Echo a text (fails the first time for each text)",
        inputSchema: text,
        outputSchema: text,
        execute: async ({ text: t }: { text: string }) => {
          if (refused.has(t)) return { text: t };
          refused.add(t);
          throw Object.assign(new Error(`flaky refused "${t}" once`), { retriable: false });
        },
      }),
    },
  }),
  tools: {},
};
afterEach(() => overrideWiring({}));

type Job = { jobId: string; state: string; matched: number; done: number; failed: number };
type View = { runId: string; status: string; restarts?: string[]; restartOf?: { runId: string; fromStep?: string } };

async function failedRun(token: string, t: string, tags: Record<string, string>): Promise<string> {
  const lwir = {
    ...(await stepsLwir(flaky, [
      { id: "echo", uses: "tool.call", with: { tool: "flaky", input: { text: "{{ input.text }}" } }, output: { mode: "json" } },
    ])),
    permissions: { models: [], tools: ["flaky"], secrets: [], network: [] },
  };
  const r = await call("POST", "/v1/lwir/runs?wait=30", { token, body: { lwir, input: { text: t }, tags } });
  expect(r.status, r.text).toBeLessThan(300);
  const run = r.json.run as View;
  expect(run.status).toBe("failed");
  return run.runId;
}

async function driveJob(tenant: string, jobId: string): Promise<number> {
  const stub = () => env.BULK.get(env.BULK.idFromName(`${tenant}:${jobId}`));
  let resets = 0;
  for (let i = 0; i < 50; i++) {
    try {
      if (!(await runDurableObjectAlarm(stub()))) return resets;
    } catch (error) {
      if (!/reset|abort/i.test(String(error))) throw error;
      resets++;
    }
  }
  throw new Error("the job never finished");
}

describe("bulk restart", () => {
  it("restarts every failed run with the tag from its failed step once, across a crash, and leaves the others", async () => {
    let acts = 0;
    let crashed = false;
    overrideWiring({
      models: OFFLINE,
      workflows: catalogOf([flaky]),
      bulkPageSize: 2,
      afterBulkAct: (ctx) => {
        acts++;
        if (acts === 2 && !crashed) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    const tenant = `bulkr${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const salt = crypto.randomUUID().slice(0, 8);
    const tagged = [];
    for (let n = 0; n < 3; n++) tagged.push(await failedRun(token, `${salt}-a${n}`, { batch: "a" }));
    const other = await failedRun(token, `${salt}-b`, { batch: "b" });
    const started = await call("POST", "/v1/runs/bulk", {
      token,
      body: { action: "restart", filter: { tag: "batch:a", status: "failed" } },
    });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.json.job as Job).jobId;
    // The crash may land in an alarm the platform ran before this test drives one: either way it happened once.
    await driveJob(tenant, jobId);
    expect(crashed).toBe(true);
    const job = (await call("GET", `/v1/runs/bulk/${jobId}`, { token })).json.job as Job;
    expect(job).toMatchObject({ state: "done", matched: 3, done: 3, failed: 0 });
    for (const id of tagged) {
      const source = (await call("GET", `/v1/runs/${id}`, { token })).json.run as View;
      // One restart per run, though the act before the crash was repeated.
      expect(source.restarts).toHaveLength(1);
      const restartId = source.restarts?.[0] as string;
      expect(await driveToEnd(restartId, 40, tenant)).toMatchObject({ status: "completed" });
      const restarted = (await call("GET", `/v1/runs/${restartId}`, { token })).json.run as View;
      expect(restarted).toMatchObject({ status: "completed", restartOf: { runId: id, fromStep: "echo" } });
    }
    expect(((await call("GET", `/v1/runs/${other}`, { token })).json.run as View).restarts ?? []).toEqual([]);
  }, 120_000);
});
