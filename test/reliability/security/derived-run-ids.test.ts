/**
 * Issue 24, hole 2: the run ids the Worker derives for webhook deliveries (`run_wh_`), cron ticks
 * (`run_cron_`) and queue messages (`run_q_`) are computable, and a caller could claim one first:
 * the real delivery then met 409 `webhook_id_conflict` on every retry. Now a caller's `runId` with
 * those prefixes is 422 `run_id_reserved` (HTTP and the RPC binding), nothing is stored, and the
 * real delivery, tick or message starts its run.
 */
import { createExecutionContext, createMessageBatch } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { dailyDigest } from "../../../src/examples/ops-daily-digest.ts";
import { summarizeTicket } from "../../../src/examples/support-summarize-ticket.ts";
import { digestJson, digestPrefix } from "../../../src/json/digest.ts";
import { handleQueue } from "../../../src/triggers/handlers.ts";
import { queueRunId } from "../../../src/triggers/queue-consumer.ts";
import { scheduledRunId, startScheduledRuns } from "../../../src/triggers/scheduled-starts.ts";
import { overrideWiring, wire } from "../../../src/wiring.ts";
import { call } from "../../api/support/api-call.ts";
import { runStub } from "../../support/drive.ts";
import { deliver, nowSeconds, signDelivery } from "./support/webhook-delivery.ts";

const TICKET = "support.summarize-ticket";
const INPUT = { ticketId: "T-squat", transcript: "The real delivery's input." };
const SQUAT = { ticketId: "T-squatter", transcript: "The squatter's input." };

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([
      { definition: summarizeTicket, tools: {} },
      { definition: dailyDigest, tools: {} },
    ]),
  }),
);
afterEach(() => overrideWiring({}));

/** Every way a caller names a run id, each refused with the named code; nothing is indexed. */
async function expectSquatRefused(workflowId: string, runId: string, input: unknown, tenant = "dev") {
  const http = await call("POST", `/v1/workflows/${workflowId}/runs`, { body: { input, runId } });
  expect(http.status, http.text).toBe(422);
  expect(http.json.error?.code).toBe("run_id_reserved");
  let rpc: unknown = null;
  try {
    await exports.LittleWorkflowEntrypoint({ props: { tenant } }).startRun(workflowId, input, { runId });
  } catch (error) {
    rpc = error;
  }
  expect(rpc).toMatchObject({ code: "run_id_reserved", status: 422 });
  expect(await wire(env).runs.get(tenant, runId)).toBeNull();
}

describe("derived run ids are the Worker's own", () => {
  it("webhook: a caller cannot claim run_wh_<digest>; the signed delivery then starts its run", async () => {
    const webhookId = `msg_squat_${crypto.randomUUID()}`;
    const runId = `run_wh_${digestPrefix(digestJson({ workflowId: TICKET, webhookId }), 24)}`;
    await expectSquatRefused(TICKET, runId, SQUAT);
    const body = JSON.stringify(INPUT);
    const r = await deliver(body, signDelivery(webhookId, body, nowSeconds()));
    expect(r.status, r.text).toBe(202);
    expect(r.runId).toBe(runId);
    const [requested] = await runStub(runId, "dev").events({ types: ["RunRequested"] });
    expect(requested?.payload).toMatchObject({ input: INPUT, trigger: { kind: "webhook", id: webhookId } });
  });

  it("cron: a caller cannot claim a future run_cron_<digest>; the tick then starts its run", async () => {
    const cron = "0 8 * * MON-FRI";
    // A future tick (the review's squat was accepted with 202), unique to this test.
    const scheduledTime = Date.UTC(2027, 0, 4, 8, 0) + Math.floor(Math.random() * 1_000) * 7 * 86_400_000;
    const runId = scheduledRunId(dailyDigest.id, cron, scheduledTime);
    await expectSquatRefused(dailyDigest.id, runId, { team: "squat", focus: "squat" }, "default");
    const started = await startScheduledRuns({ cron, scheduledTime }, env);
    expect(started).toEqual([expect.objectContaining({ runId, outcome: "started" })]);
    const [requested] = await runStub(runId, "default").events({ types: ["RunRequested"] });
    expect(requested?.payload).toMatchObject({ input: { team: "support" }, trigger: { kind: "cron" } });
  });

  it("queue: a caller cannot claim run_q_<digest>; the message then starts its run", async () => {
    const messageId = `msg-squat-${crypto.randomUUID()}`;
    const runId = queueRunId("little-workflow-runs", messageId);
    await expectSquatRefused(TICKET, runId, SQUAT, "default");
    const batch = createMessageBatch("little-workflow-runs", [
      { id: messageId, timestamp: new Date(0), attempts: 1, body: { workflowId: TICKET, input: INPUT } },
    ]);
    await handleQueue(batch, env, createExecutionContext());
    const [requested] = await runStub(runId, "default").events({ types: ["RunRequested"] });
    expect(requested?.payload).toMatchObject({ input: INPUT, trigger: { kind: "queue", id: messageId } });
  });

  it("ids that only look alike are still the caller's to choose", async () => {
    for (const runId of [
      `run_whx_${crypto.randomUUID().slice(0, 8)}`,
      `RUN_WH_${crypto.randomUUID().slice(0, 8)}`,
      `my_run_q_${crypto.randomUUID().slice(0, 8)}`,
    ]) {
      const r = await call("POST", `/v1/workflows/${TICKET}/runs`, { body: { input: INPUT, runId } });
      expect(r.status, r.text).toBe(202);
    }
  });
});
