/**
 * Deletion and bulk actions through the typed client and through the RPC entrypoint, against the
 * real Worker inside workerd (its own fetch, its own loopback service binding).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { createClient, LittleClientError } from "../../src/client/index.ts";
import { overrideWiring } from "../../src/wiring.ts";

const INPUT = { ticketId: "T-13", transcript: "Forget me." };
const WORKFLOW = "support.summarize-ticket";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

const worker = (input: Request | string | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init));
const client = createClient({ baseUrl: "http://little.test", token: "test-dev-token", fetch: worker });

async function driveJob(tenant: string, jobId: string): Promise<void> {
  const stub = env.BULK.get(env.BULK.idFromName(`${tenant}:${jobId}`));
  for (let i = 0; i < 50; i++) if (!(await runDurableObjectAlarm(stub))) return;
}

/** The code of a rejected RPC call (awaited here, so nothing is left unhandled). */
async function rpcCode(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("deletion and bulk actions through the client and RPC", () => {
  it("client.deleteRun deletes; the run is then a 410 run_deleted LittleClientError", async () => {
    const { run } = await client.startRun(WORKFLOW, INPUT, { wait: 20 });
    const { deleted } = await client.deleteRun(run.runId, { cancel: true });
    expect(deleted).toMatchObject({ runId: run.runId, workflowId: WORKFLOW, by: "dev" });
    const error = await client.getRun(run.runId).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LittleClientError);
    expect((error as LittleClientError).code).toBe("run_deleted");
    expect((error as LittleClientError).status).toBe(410);
  });

  it("client.startBulkAction and getBulkAction report a dry run", async () => {
    const { run } = await client.startRun(WORKFLOW, INPUT, { wait: 20 });
    const since = new Date(Date.now() - 60_000).toISOString();
    const { job } = await client.startBulkAction({ action: "delete", filter: { workflowId: WORKFLOW, createdAfter: since }, dryRun: true });
    expect(job).toMatchObject({ action: "delete", dryRun: true, state: "running" });
    await driveJob("dev", job.jobId);
    const status = await client.getBulkAction(job.jobId);
    expect(status.job).toMatchObject({ state: "done", done: 0 });
    expect(status.job.sample).toContain(run.runId);
    expect((await client.getRun(run.runId)).run.status).toBe("completed");
  });

  it("RPC deleteRun, startBulkAction and getBulkAction act for the binding's tenant", async () => {
    const rpc = exports.LittleWorkflowEntrypoint({ props: { tenant: "dev" } });
    const run = await rpc.startRun(WORKFLOW, INPUT, { wait: 20 });
    const deleted = await rpc.deleteRun(run.runId);
    expect(deleted).toMatchObject({ runId: run.runId, by: "rpc" });
    expect(await rpcCode(rpc.getRun(run.runId))).toBe("run_deleted");
    const job = await rpc.startBulkAction({ action: "cancel", filter: { workflowId: WORKFLOW, status: "running" }, dryRun: true });
    await driveJob("dev", job.jobId);
    expect(await rpc.getBulkAction(job.jobId)).toMatchObject({ jobId: job.jobId, state: "done", done: 0 });
    expect(await rpcCode(rpc.startBulkAction({ action: "explode" }))).toBe("bulk_action_unknown");
  });
});
