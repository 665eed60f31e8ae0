/**
 * Issue 19: the run index is written after the start answers. A crash between the ack and the
 * index write loses no run (the alarm the start armed repairs it), `GET /v1/runs/:id` finds a run
 * whose row has not landed at its object. (The start quotas, which this write once settled, are
 * the run's tenant gates now: tenant-admission-crash.test.ts.)
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import type { RunIndex } from "../../src/ports/run-index.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call, tenantToken } from "../api/support/api-call.ts";
import { driveToEnd, rawRunStub, runStub } from "../support/drive.ts";
import { indexWithUpsert } from "../support/index-with-upsert.ts";

const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const WORKFLOW = "support.summarize-ticket";
const INPUT = { ticketId: "T-19", transcript: "The export button does nothing since the update." };

beforeEach(() => overrideWiring({ models: OFFLINE }));
afterEach(() => overrideWiring({}));

/** The D1 index, except that this run's first write never lands (the Worker died while sending it). */
function holdingFirstWrite(runId: string): (d1: RunIndex) => RunIndex {
  let held = false;
  return (d1) =>
    indexWithUpsert(d1, (entry, upsert) => {
      if (entry.runId === runId && !held) {
        held = true;
        return new Promise<void>(() => {});
      }
      return upsert(entry);
    });
}

async function indexRows(tenant: string): Promise<{ run_id: string; status: string }[]> {
  const { results } = await env.DB.prepare("SELECT run_id, status FROM runs WHERE tenant = ? ORDER BY run_id")
    .bind(tenant)
    .all<{ run_id: string; status: string }>();
  return results;
}

/** Waits for the run object's index write after the start (the write it kicked off after answering). */
async function indexWritten(runId: string, tenant: string): Promise<void> {
  await runInDurableObject(rawRunStub(runId, tenant), async (instance) => {
    await (instance as unknown as { indexing: Promise<void> | null }).indexing;
  });
}

/** Aborts the run object, as a crash or an eviction mid-write would. */
async function crash(runId: string, tenant: string): Promise<void> {
  await runInDurableObject(rawRunStub(runId, tenant), (_instance, state) => state.abort()).catch(() => undefined);
}

async function newTenant(prefix: string): Promise<{ tenant: string; token: string }> {
  const tenant = `${prefix}_${crypto.randomUUID().slice(0, 8)}`;
  return { tenant, token: await tenantToken(tenant) };
}

describe("the run index is written after the ack", () => {
  it("a crash between the ack and the index write loses no run: it is in GET /v1/runs after recovery, once", async () => {
    const { tenant, token } = await newTenant("ack_crash");
    const runId = "run_ack_crash";
    overrideWiring({ models: OFFLINE, runs: holdingFirstWrite(runId) });
    const started = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } });
    expect(started.status).toBe(202);

    // Acked, with no row: the list does not show it yet, but the run is found at its object.
    expect(await indexRows(tenant)).toEqual([]);
    const listed = await call("GET", "/v1/runs", { token });
    expect((listed.json.runs as unknown[]).length).toBe(0);
    const read = await call("GET", `/v1/runs/${runId}`, { token });
    expect(read.status).toBe(200);
    expect(read.json.run).toMatchObject({ runId, status: "pending", workflowId: WORKFLOW, eventCount: 1 });
    const events = await call("GET", `/v1/runs/${runId}/events`, { token });
    expect((events.json.events as { type: string }[]).map((e) => e.type)).toEqual(["RunRequested"]);

    await crash(runId, tenant);
    const writes: string[] = [];
    overrideWiring({
      models: OFFLINE,
      runs: (d1) => {
        const upsert = d1.upsert.bind(d1);
        d1.upsert = (entry) => {
          if (entry.runId === runId) writes.push(entry.status);
          return upsert(entry);
        };
        return d1;
      },
    });
    const view = await driveToEnd(runId, 40, tenant);
    expect(view.status).toBe("completed");
    // The repair path wrote the row first, before the drive did anything.
    expect(writes[0]).toBe("pending");

    expect(await indexRows(tenant)).toEqual([{ run_id: runId, status: "completed" }]);
    const after = await call("GET", "/v1/runs", { token });
    expect((after.json.runs as { runId: string; status: string }[]).map((r) => [r.runId, r.status])).toEqual([[runId, "completed"]]);
  });

  it("a crash after the row landed but before its mark was cleared: the repair writes it again, once", async () => {
    const { tenant, token } = await newTenant("ack_mark");
    const runId = "run_ack_mark";
    const started = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } });
    expect(started.status).toBe(202);
    // The row lands right after the ack (read-after-ack holds on one D1: the write was sent first).
    await indexWritten(runId, tenant);
    expect(await indexRows(tenant)).toEqual([{ run_id: runId, status: "pending" }]);
    // As if the object died after the row landed and before clearing its mark (a mark from before
    // the tenant gates carried its quota window: it is read the same way).
    await runInDurableObject(rawRunStub(runId, tenant), (_instance, state) => {
      state.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('indexDue', ?)", JSON.stringify({ startWindow: 60_000 }));
    });
    await crash(runId, tenant);
    expect((await driveToEnd(runId, 40, tenant)).status).toBe("completed");
    expect(await indexRows(tenant)).toEqual([{ run_id: runId, status: "completed" }]);
  });

  it("a run not started is still 404, and another tenant never finds a run through its object", async () => {
    const owner = await newTenant("ack_owner");
    const other = await newTenant("ack_other");
    const runId = "run_ack_private";
    overrideWiring({ models: OFFLINE, runs: holdingFirstWrite(runId) });
    expect((await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token: owner.token, body: { input: INPUT, runId } })).status).toBe(202);
    expect((await call("GET", `/v1/runs/${runId}`, { token: owner.token })).status).toBe(200);
    const foreign = await call("GET", `/v1/runs/${runId}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error?.code).toBe("run_not_found");
    expect((await call("GET", "/v1/runs/run_never_started", { token: owner.token })).status).toBe(404);
  });

  it("the first slice does not wait for the start's row write: with it still in flight the run is driven to its end, and its own rows clear the mark", async () => {
    const { tenant, token } = await newTenant("ack_inflight");
    const runId = "run_ack_inflight";
    // The start's row write never lands (a far, stuck D1); the object is not restarted.
    overrideWiring({ models: OFFLINE, runs: holdingFirstWrite(runId) });
    expect((await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } })).status).toBe(202);
    expect((await driveToEnd(runId, 40, tenant)).status).toBe("completed");
    expect(await indexRows(tenant)).toEqual([{ run_id: runId, status: "completed" }]);
    await runInDurableObject(rawRunStub(runId, tenant), (_instance, state) => {
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM meta WHERE key = 'indexDue'").one().n).toBe(0);
    });
  });

  it("concurrent starts of one run id: one run, one row", async () => {
    const { tenant, token } = await newTenant("ack_race");
    const runId = "run_ack_race";
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
    await indexWritten(runId, tenant);
    expect(await indexRows(tenant)).toEqual([{ run_id: runId, status: "pending" }]);
    const [requested, ...rest] = await runStub(runId, tenant).events({ limit: 1_000 });
    expect(requested?.type).toBe("RunRequested");
    expect(rest.some((e) => e.type === "RunRequested")).toBe(false);
  });
});

describe("a start whose RPC fails after the run object created the run", () => {
  it("is 503 run_start_unconfirmed; the run exists, is indexed by its object, and a retry of the same start finds it", async () => {
    const { tenant, token } = await newTenant("ack_rpc_lost");
    const runId = "run_ack_rpc_lost";
    overrideWiring({
      models: OFFLINE,
      runHandles: (handles) => ({
        ...handles,
        open: (t, id, placement) => {
          const handle = handles.open(t, id, placement);
          return {
            ...handle,
            // The object creates the run; its answer is lost on the way back.
            start: async (request) => {
              await handle.start(request);
              throw new Error("the connection to the run object was reset");
            },
          };
        },
      }),
    });
    const started = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } });
    expect(started.status).toBe(503);
    expect(started.json.error?.code).toBe("run_start_unconfirmed");
    expect(started.headers.get("retry-after")).toBe("1");
    overrideWiring({ models: OFFLINE });
    await indexWritten(runId, tenant);
    expect(await indexRows(tenant)).toEqual([{ run_id: runId, status: "pending" }]);
    // A retry of the same start finds its run.
    const retried = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } });
    expect(retried.status).toBe(202);
    expect((retried.json.run as { runId: string }).runId).toBe(runId);
  });
});

describe("between slices a run object holds none of its log", () => {
  it("after its alarm's slice the drive's copy of the log is dropped; the next read of the log reads the table", async () => {
    const { tenant, token } = await newTenant("ack_release");
    const runId = "run_ack_release";
    expect((await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } })).status).toBe(202);
    expect((await driveToEnd(runId, 40, tenant)).status).toBe("completed");
    await runInDurableObject(rawRunStub(runId, tenant), async (instance) => {
      const log = (instance as unknown as { log: { cache: unknown[] | null; all(): Promise<unknown[]> } }).log;
      expect(log.cache).toBeNull();
      const events = await log.all();
      expect(events.length).toBeGreaterThan(5);
      expect(log.cache).toHaveLength(events.length);
    });
    // The view still answers, from the fold.
    expect((await call("GET", `/v1/runs/${runId}`, { token })).json.run).toMatchObject({ status: "completed" });
  });
});
