import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { overrideWiring, type WiringOverrides } from "../../src/wiring.ts";
import { call, runEvents, tenantToken } from "../api/support/api-call.ts";
import { runStub } from "../support/drive.ts";
import { stepsLwir } from "../support/wait-lwir.ts";

/**
 * Bulk jobs over HTTP and their object's alarm, driven with runDurableObjectAlarm (never by
 * sleeping), with the object aborted after an act and before it records it: the job resumes,
 * every matching run is acted on, none twice, and the counts are exact.
 */
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const waiting: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.bulk-wait",
    description: "Waits for a signal.",
    input: z.object({ n: z.number() }),
    output: z.looseObject({}),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a wait." },
    signals: { go: { schema: z.object({}), description: "Go" } },
  }),
  tools: {},
};

function wiring(extra: WiringOverrides = {}): void {
  overrideWiring({ models: OFFLINE, workflows: catalogOf([waiting]), bulkPageSize: 2, ...extra });
}
afterEach(() => overrideWiring({}));

type Job = { jobId: string; state: string; matched: number; done: number; failed: number; failures: unknown[]; sample?: string[] };

/** `count` runs of the tenant waiting for a signal. */
async function waitingRuns(token: string, tenant: string, count: number): Promise<string[]> {
  const lwir = await stepsLwir(waiting, [{ id: "wait", uses: "wait.signal", with: { signals: ["go"], timeoutMs: 600_000 } }]);
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const r = await call("POST", "/v1/lwir/runs", { token, body: { lwir, input: { n } } });
    expect(r.status, r.text).toBe(202);
    ids.push((r.json.run as { runId: string }).runId);
  }
  for (const id of ids)
    for (let i = 0; i < 100; i++) {
      if ((await runStub(id, tenant).status()).status === "waiting") break;
      await runStub(id, tenant).waitForEnd(50);
    }
  return ids;
}

const bulkStub = (tenant: string, jobId: string) => env.BULK.get(env.BULK.idFromName(`${tenant}:${jobId}`));

/** Runs the job's alarms until it is done; an aborted object is taken up again with a fresh stub. */
async function driveJob(tenant: string, jobId: string): Promise<number> {
  let resets = 0;
  for (let i = 0; i < 50; i++) {
    try {
      if (!(await runDurableObjectAlarm(bulkStub(tenant, jobId)))) return resets;
    } catch (error) {
      if (!/reset|abort/i.test(String(error))) throw error;
      resets++;
    }
  }
  throw new Error("the job never finished");
}

async function startJob(token: string, body: unknown): Promise<Job> {
  const r = await call("POST", "/v1/runs/bulk", { token, body });
  expect(r.status, r.text).toBe(202);
  return r.json.job as Job;
}

describe("bulk actions", () => {
  it("a dry run counts and lists the matches and acts on nothing", async () => {
    wiring();
    const tenant = `bulk${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const ids = await waitingRuns(token, tenant, 3);
    const job = await startJob(token, { action: "cancel", filter: { workflowId: "test.bulk-wait", status: "waiting" }, dryRun: true });
    await driveJob(tenant, job.jobId);
    const done = (await call("GET", `/v1/runs/bulk/${job.jobId}`, { token })).json.job as Job;
    expect(done).toMatchObject({ state: "done", matched: 3, done: 0, failed: 0 });
    expect(new Set(done.sample)).toEqual(new Set(ids));
    for (const id of ids) expect((await runStub(id, tenant).status()).status).toBe("waiting");
  });

  it("cancel: a crash after an act and before its record resumes; every run cancelled once, counts exact", async () => {
    let acts = 0;
    let crashed = false;
    wiring({
      afterBulkAct: (ctx) => {
        acts++;
        if (acts === 3 && !crashed) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    const tenant = `bulk${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const ids = await waitingRuns(token, tenant, 5);
    const job = await startJob(token, { action: "cancel", filter: { workflowId: "test.bulk-wait" } });
    expect(job).toMatchObject({ state: "running", matched: 0 });
    expect(await driveJob(tenant, job.jobId)).toBe(1);
    expect(crashed).toBe(true);
    const done = (await call("GET", `/v1/runs/bulk/${job.jobId}`, { token })).json.job as Job;
    expect(done).toMatchObject({ state: "done", matched: 5, done: 5, failed: 0, failures: [] });
    for (const id of ids) {
      const events = await runEvents(id, token);
      expect(events.filter((e) => e.type === "RunCancelled")).toHaveLength(1);
    }
    // Another tenant cannot read the job.
    expect((await call("GET", `/v1/runs/bulk/${job.jobId}`)).json.error?.code).toBe("bulk_job_not_found");
  });

  it("delete: a crash mid-page resumes; every matching run deleted once, runs outside the filter kept", async () => {
    let acts = 0;
    let crashed = false;
    wiring({
      afterBulkAct: (ctx) => {
        acts++;
        if (acts === 2 && !crashed) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    const tenant = `bulk${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const ids = await waitingRuns(token, tenant, 4);
    const kept = ids.slice(0, 1);
    for (const id of ids.slice(1)) expect((await call("POST", `/v1/runs/${id}/cancel`, { token })).status).toBe(200);
    const job = await startJob(token, { action: "delete", filter: { status: "cancelled" } });
    expect(await driveJob(tenant, job.jobId)).toBe(1);
    const done = (await call("GET", `/v1/runs/bulk/${job.jobId}`, { token })).json.job as Job;
    expect(done).toMatchObject({ state: "done", matched: 3, done: 3, failed: 0 });
    for (const id of ids.slice(1)) expect((await call("GET", `/v1/runs/${id}`, { token })).json.error?.code).toBe("run_deleted");
    const tombs = await env.DB.prepare("SELECT run_id, by FROM run_tombstones WHERE tenant = ?").bind(tenant).all<{ by: string }>();
    expect(tombs.results).toHaveLength(3);
    expect(tombs.results.every((t) => t.by === `bulk:${job.jobId}`)).toBe(true);
    expect((await call("GET", `/v1/runs/${kept[0]}`, { token })).status).toBe(200);
  });

  it("refuses bad requests with named 422s and creates no job", async () => {
    wiring();
    const cases: [unknown, string][] = [
      [{ action: "explode" }, "bulk_action_unknown"],
      [{ action: "cancel", filter: { createdAfter: "yesterday" } }, "bulk_filter_invalid"],
      [
        { action: "cancel", filter: { createdAfter: "2026-12-02T00:00:00Z", createdBefore: "2026-12-01T00:00:00Z" } },
        "bulk_filter_invalid",
      ],
      [{ action: "cancel", filter: { status: "sleeping" } }, "bulk_filter_invalid"],
      [{ action: "cancel", filter: { tag: "no-colon" } }, "bulk_filter_invalid"],
    ];
    for (const [body, code] of cases) {
      const r = await call("POST", "/v1/runs/bulk", { body });
      expect({ status: r.status, code: r.json.error?.code }, JSON.stringify(body)).toEqual({ status: 422, code });
    }
    const tenant = `bulk${crypto.randomUUID().slice(0, 8)}`;
    const made = await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant, scopes: ["runs:read", "runs:write"] } });
    const r = await call("POST", "/v1/runs/bulk", { token: made.json.token as string, body: { action: "delete" } });
    expect({ status: r.status, code: r.json.error?.code }).toEqual({ status: 403, code: "insufficient_scope" });
  });
});
