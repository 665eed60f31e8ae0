/**
 * Issue 32: no single-region round trip before a start's ack. D1 is one primary in one region, so
 * every round trip a door makes to it before answering is a far caller's wait. The D1 binding is
 * wrapped as the global-latency bench wraps it (bench/worker/delayed-d1.ts, installed through the
 * wiring seam), and each door is called in this test's own async context, so the count is of the
 * round trips made before the answer by the code that answers — the run object's own writes after
 * its ack (its index row, its quota gates' bookkeeping) happen in its context and are not counted.
 */
import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countD1Calls, delayedD1 } from "../../bench/worker/delayed-d1.ts";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { app } from "../../src/api/app.ts";
import { LittleWorkflowEntrypoint } from "../../src/api/rpc-entrypoint.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { handleQueue } from "../../src/triggers/handlers.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { signalWaitingWorkflow, signalWaitLwir } from "../support/signal-waiting.ts";
import { tenantToken } from "./support/api-call.ts";

const WORKFLOW = "support.summarize-ticket";
const INPUT = { ticketId: "T-32", transcript: "The export button does nothing." };

const waiting = signalWaitingWorkflow("test.round-trips-wait");

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    database: delayedD1,
    workflows: catalogOf([{ definition: summarizeTicket, tools: {} }, waiting]),
  }),
);
afterEach(() => overrideWiring({}));

/** One request to the Worker's app, in this context: its answer and the D1 round trips made before it. */
async function counted(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; d1: number }> {
  const ctx = createExecutionContext();
  const { result, calls } = await countD1Calls(async () => {
    const res = await app.fetch(
      new Request(`http://little.test${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
      env,
      ctx,
    );
    return { status: res.status, json: (await res.json()) as unknown };
  });
  await waitOnExecutionContext(ctx);
  return { ...result, d1: calls };
}

const unique = () => crypto.randomUUID().slice(0, 8);
const pick = ({ status, d1 }: { status: number; d1: number }) => ({ status, d1 });

describe("D1 round trips before a start's ack", () => {
  it("HTTP with the dev token: none, and the run is durable in its object when the 202 is heard", async () => {
    // A caller's own id that cannot be a minted anchor (`run_` and 24 hex digits) is looked up nowhere.
    const runId = `order-${unique()}`;
    // Warm the isolate's approval read of this definition (kept per isolate: approval-reads.ts).
    await counted("POST", `/v1/workflows/${WORKFLOW}/runs`, "test-dev-token", { input: INPUT });
    const started = await counted("POST", `/v1/workflows/${WORKFLOW}/runs`, "test-dev-token", { input: INPUT, runId });
    expect(started.status).toBe(202);
    expect(started.d1).toBe(0);
    const [requested] = await runStub(runId, "dev").events({ limit: 1 });
    expect(requested?.type).toBe("RunRequested");
    // An idempotent retry finds it, with no D1 round trip either.
    const again = await counted("POST", `/v1/workflows/${WORKFLOW}/runs`, "test-dev-token", { input: INPUT, runId });
    expect({ status: again.status < 300, runId: (again.json as { run: { runId: string } }).run.runId, d1: again.d1 }).toEqual({
      status: true,
      runId,
      d1: 0,
    });
  });

  it("HTTP with a tenant token: its token check only (one read; a revoke is honoured at once)", async () => {
    const token = await tenantToken(`rt_${unique()}`);
    await counted("POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT });
    const started = await counted("POST", `/v1/workflows/${WORKFLOW}/runs`, token, { input: INPUT });
    expect(started.status).toBe(202);
    expect(started.d1).toBe(1);
  });

  it("RPC (a service binding's startRun) and an idempotent retry of it: none", async () => {
    const ctx = createExecutionContext();
    const rpc = new LittleWorkflowEntrypoint(ctx, env as never);
    await rpc.startRun(WORKFLOW, INPUT);
    const idempotencyKey = `rt_rpc_${unique()}`;
    const { result, calls } = await countD1Calls(() => rpc.startRun(WORKFLOW, INPUT, { idempotencyKey }));
    expect(result.status).toBe("pending");
    expect(calls).toBe(0);
    const retry = await countD1Calls(() => rpc.startRun(WORKFLOW, INPUT, { idempotencyKey }));
    expect({ runId: retry.result.runId, d1: retry.calls }).toEqual({ runId: result.runId, d1: 0 });
  });

  it("a caller id of an anchor's shape is looked up (the anchor read), and a minted anchor is adopted", async () => {
    const minted = await counted("POST", `/v1/workflows/${WORKFLOW}/anchors`, "test-dev-token");
    const runId = (minted.json as { run: { runId: string } }).run.runId;
    const started = await counted("POST", `/v1/workflows/${WORKFLOW}/runs`, "test-dev-token", { input: INPUT, runId });
    expect(started.status).toBe(202);
    // The anchor's row lives in D1: its lookup and its claim are on the ack's path (docs/runs.md).
    expect(started.d1).toBeGreaterThanOrEqual(2);
    expect((started.json as { run: { runId: string } }).run.runId).toBe(runId);
  });

  it("a queue message: none before it is acknowledged", async () => {
    const message = (id: string) => ({ id, timestamp: new Date(0), attempts: 1, body: { workflowId: WORKFLOW, input: INPUT } });
    // Warm the isolate's approval read for the queue's tenant.
    const warm = createExecutionContext();
    await handleQueue(createMessageBatch("little-workflow-runs", [message(`rt_warm_${unique()}`)]), env, warm);
    await waitOnExecutionContext(warm);
    const id = `rt_msg_${unique()}`;
    const batch = createMessageBatch("little-workflow-runs", [message(id)]);
    const ctx = createExecutionContext();
    const { calls } = await countD1Calls(() => handleQueue(batch, env, ctx));
    await waitOnExecutionContext(ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([id]);
    expect(calls).toBe(0);
  });
});

describe("D1 round trips before the other doors answer", () => {
  it("a read of a run, a signal to it and its cancel: none (each is answered by the run's object, found by its name)", async () => {
    const lwir = await signalWaitLwir(waiting);
    const started = await counted("POST", "/v1/lwir/runs", "test-dev-token", { lwir, input: {} });
    const runId = (started.json as { run: { runId: string } }).run.runId;
    let read = await counted("GET", `/v1/runs/${runId}`, "test-dev-token");
    for (let i = 0; i < 200 && (read.json as { run: { waitReason?: string } }).run.waitReason !== "signal"; i++) {
      await runStub(runId, "dev").waitForEnd(20);
      read = await counted("GET", `/v1/runs/${runId}`, "test-dev-token");
    }
    expect({ status: read.status, waitReason: (read.json as { run: { waitReason?: string } }).run.waitReason, d1: read.d1 }).toEqual({
      status: 200,
      waitReason: "signal",
      d1: 0,
    });
    // Every other door of a live run finds it at its object too (findTenantRun): its events, approvals, a pause.
    for (const [method, path] of [
      ["GET", `/v1/runs/${runId}/events`],
      ["GET", `/v1/runs/${runId}/approvals`],
      ["GET", `/v1/runs/${runId}/signals`],
    ] as const)
      expect({ path, ...pick(await counted(method, path, "test-dev-token")) }).toEqual({ path, status: 200, d1: 0 });
    const signal = await counted("POST", `/v1/runs/${runId}/signals`, "test-dev-token", { name: "go", payload: {} });
    expect({ status: signal.status, d1: signal.d1 }).toEqual({ status: 202, d1: 0 });

    const second = await counted("POST", "/v1/lwir/runs", "test-dev-token", { lwir, input: {} });
    const other = (second.json as { run: { runId: string } }).run.runId;
    const cancel = await counted("POST", `/v1/runs/${other}/cancel`, "test-dev-token", {});
    expect({ status: cancel.status, run: (cancel.json as { run: { status: string } }).run.status, d1: cancel.d1 }).toEqual({
      status: 200,
      run: "cancelled",
      d1: 0,
    });
    // Another tenant's id is not found, and an unknown id is a 404 after the index read (an anchor has no
    // object) and the tombstone read (a deleted run is a 410): both only on the miss path.
    const stranger = await tenantToken(`rt_${unique()}`);
    expect((await counted("GET", `/v1/runs/${runId}`, stranger)).status).toBe(404);
    const unknown = await counted("GET", "/v1/runs/no-such-run", "test-dev-token");
    expect({ status: unknown.status, d1: unknown.d1 }).toEqual({ status: 404, d1: 2 });
  });
});
