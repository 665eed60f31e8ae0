import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import type { ApiServices } from "../../src/api/api-env.ts";
import { startTenantRun } from "../../src/api/run-operations.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { digestJson } from "../../src/json/digest.ts";
import type { DeadLetter } from "../../src/triggers/dead-letter.ts";
import { BASE_DELAY_SECONDS } from "../../src/triggers/failure-policy.ts";
import { handleQueue } from "../../src/triggers/handlers.ts";
import { consumeRunMessages, queueRunId } from "../../src/triggers/queue-consumer.ts";
import { DEFAULT_QUEUE_MAX_RETRIES } from "../../src/triggers/queue-max-retries.ts";
import { overrideWiring, wire } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";

const QUEUE = "little-workflow-runs";
const INPUT = { ticketId: "T-Q1", transcript: "I was charged twice for the same order." };

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([{ definition: summarizeTicket, tools: {} }]),
  }),
);
afterEach(() => overrideWiring({}));

/** The Worker's env with the dead-letter producer replaced by one that records what it is sent. */
function recordingEnv(base: Env = env): { env: Env; letters: DeadLetter[] } {
  const letters: DeadLetter[] = [];
  const LITTLE_DEAD_LETTERS = { send: async (body: DeadLetter) => void letters.push(body) };
  return { env: { ...base, LITTLE_DEAD_LETTERS } as Env, letters };
}

async function deliver(messages: { id: string; body: unknown; attempts?: number }[], target: Env) {
  const batch = createMessageBatch(
    QUEUE,
    messages.map((m) => ({ id: m.id, timestamp: new Date(0), attempts: m.attempts ?? 1, body: m.body })),
  );
  const ctx = createExecutionContext();
  await handleQueue(batch, target, ctx);
  return getQueueResult(batch, ctx);
}

/**
 * The consumer's own account of a batch: the pool's queue result records that a message was
 * retried but drops the delay, so the backoff is read from the outcomes.
 */
async function consume(messages: { id: string; body: unknown; attempts?: number }[], target: Env) {
  const batch = createMessageBatch(
    QUEUE,
    messages.map((m) => ({ id: m.id, timestamp: new Date(0), attempts: m.attempts ?? 1, body: m.body })),
  );
  const outcomes = await consumeRunMessages(batch, target);
  return { outcomes, result: await getQueueResult(batch, createExecutionContext()) };
}

describe("handleQueue: one run per message", () => {
  it("a message starts a run (the message id its idempotency key) that completes, and is acknowledged", async () => {
    const { env: target, letters } = recordingEnv();
    const result = await deliver([{ id: "msg-complete", body: { workflowId: "support.summarize-ticket", input: INPUT } }], target);
    expect(result).toMatchObject({ ackAll: false, explicitAcks: ["msg-complete"], retryMessages: [] });
    expect(result.retryBatch.retry).toBe(false);
    const runId = queueRunId(QUEUE, "msg-complete");
    const view = await driveToEnd(runId);
    expect(view).toMatchObject({ status: "completed", workflowId: "support.summarize-ticket", tenant: "default" });
    expect(await wire(env).runs.get("default", runId)).toMatchObject({ triggerKind: "queue", status: "completed" });
    const [requested] = await runStub(runId).events({ types: ["RunRequested"] });
    expect(requested?.payload).toMatchObject({ input: INPUT, trigger: { kind: "queue", id: "msg-complete" } });
    expect(letters).toEqual([]);
  });

  it("a redelivered message (same id) starts no second run and is acknowledged again", async () => {
    const { env: target } = recordingEnv();
    const body = { workflowId: "support.summarize-ticket", input: INPUT, tenant: "acme" };
    await deliver([{ id: "msg-twice", body }], target);
    const again = await deliver([{ id: "msg-twice", body, attempts: 2 }], target);
    expect(again.explicitAcks).toEqual(["msg-twice"]);
    const runId = queueRunId(QUEUE, "msg-twice");
    expect(await runStub(runId, "acme").events({ types: ["RunRequested"] })).toHaveLength(1);
    const listed = await wire(env).runs.list({ tenant: "acme", workflowId: "support.summarize-ticket", limit: 50 });
    expect(listed.filter((r) => r.runId === runId)).toHaveLength(1);
  });

  it("a message's idempotencyKey replaces its id: the same start sent twice (two message ids) is one run", async () => {
    const { env: target } = recordingEnv();
    const body = { workflowId: "support.summarize-ticket", input: INPUT, idempotencyKey: "order-991" };
    const result = await deliver(
      [
        { id: "msg-key-1", body },
        { id: "msg-key-2", body },
      ],
      target,
    );
    expect([...result.explicitAcks].sort()).toEqual(["msg-key-1", "msg-key-2"]);
    const runId = queueRunId(QUEUE, "ignored", { tenant: "default", workflowId: "support.summarize-ticket", idempotencyKey: "order-991" });
    const requested = await runStub(runId).events({ types: ["RunRequested"] });
    expect(requested).toHaveLength(1);
    expect(requested[0]?.payload).toMatchObject({ trigger: { kind: "queue", id: "order-991" } });
    // The same key with another input is refused for good: dead-lettered, like the HTTP 409.
    const { env: other, letters } = recordingEnv();
    await deliver([{ id: "msg-key-3", body: { ...body, input: { ...INPUT, ticketId: "T-other" } } }], other);
    expect(letters.map((l) => l.cause)).toEqual(["idempotency_conflict"]);
  });

  it("a message's idempotencyKey is the HTTP Idempotency-Key: a run started over HTTP with the key is the queue's run too", async () => {
    const { env: target, letters } = recordingEnv();
    const key = "order-http-then-queue";
    const http = await startTenantRun(wire(env) as ApiServices, "acme", {
      workflowId: "support.summarize-ticket",
      input: INPUT,
      idempotencyKey: key,
      triggerKind: "http",
    });
    const body = { workflowId: "support.summarize-ticket", input: INPUT, idempotencyKey: key, tenant: "acme" };
    const { outcomes, result } = await consume([{ id: "msg-after-http", body }], target);
    expect(result.explicitAcks).toEqual(["msg-after-http"]);
    expect(outcomes[0]).toEqual({ messageId: "msg-after-http", outcome: "already_started", runId: http.runId, tenant: "acme" });
    expect(await runStub(http.runId, "acme").events({ types: ["RunRequested"] })).toHaveLength(1);
    expect(letters).toEqual([]);
  });

  it("a body the input schema refuses is acknowledged and dead-lettered with input_schema_error, never retried", async () => {
    const { env: target, letters } = recordingEnv();
    const body = { workflowId: "support.summarize-ticket", input: { ticketId: 42 } };
    const result = await deliver([{ id: "msg-bad-input", body }], target);
    expect(result.explicitAcks).toEqual(["msg-bad-input"]);
    expect(result.retryMessages).toEqual([]);
    expect(letters).toEqual([
      expect.objectContaining({
        kind: "little.dead-letter",
        cause: "input_schema_error",
        queue: QUEUE,
        messageId: "msg-bad-input",
        attempts: 1,
        body,
        findings: expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining("ticketId") })]),
      }),
    ]);
    expect(await wire(env).runs.get("default", queueRunId(QUEUE, "msg-bad-input"))).toBeNull();
  });

  it("each message of a batch is settled on its own: a good one starts, an unknown workflow and a non-message are dead-lettered", async () => {
    const { env: target, letters } = recordingEnv();
    const result = await deliver(
      [
        { id: "b-good", body: JSON.stringify({ workflowId: "support.summarize-ticket", input: INPUT }) },
        { id: "b-unknown", body: { workflowId: "no.such-workflow", input: {} } },
        { id: "b-garbage", body: "not json at all" },
        { id: "b-tenant", body: { workflowId: "support.summarize-ticket", input: INPUT, tenant: "Not A Tenant" } },
      ],
      target,
    );
    expect([...result.explicitAcks].sort()).toEqual(["b-garbage", "b-good", "b-tenant", "b-unknown"]);
    expect(result.retryMessages).toEqual([]);
    expect(letters.map((l) => [l.messageId, l.cause]).sort()).toEqual([
      ["b-garbage", "message_invalid"],
      ["b-tenant", "message_invalid"],
      ["b-unknown", "workflow_not_found"],
    ]);
    expect(await wire(env).runs.get("default", queueRunId(QUEUE, "b-good"))).toMatchObject({ status: "pending" });
  });

  it("a transient failure (D1 down) is retried with backoff, never acknowledged or dead-lettered", async () => {
    const broken = new Proxy(env.DB, {
      get: (target, key) =>
        key === "prepare" || key === "batch" || key === "exec"
          ? () => {
              throw new Error("D1_ERROR: Network connection lost.");
            }
          : Reflect.get(target, key),
    });
    const { env: target, letters } = recordingEnv({ ...env, DB: broken } as Env);
    const body = { workflowId: "support.summarize-ticket", input: INPUT };
    const first = await consume([{ id: "msg-transient", body }], target);
    expect(first.result.explicitAcks).toEqual([]);
    expect(first.result.retryMessages).toEqual([{ msgId: "msg-transient" }]);
    expect(first.outcomes).toEqual([
      { messageId: "msg-transient", outcome: "retried", cause: "transient_error", delaySeconds: BASE_DELAY_SECONDS },
    ]);
    const third = await consume([{ id: "msg-transient", body, attempts: 3 }], target);
    expect(third.result.retryMessages).toEqual([{ msgId: "msg-transient" }]);
    expect(third.outcomes[0]).toMatchObject({ outcome: "retried", delaySeconds: BASE_DELAY_SECONDS * 4 });
    expect(letters).toEqual([]);
    // Once D1 is back, the same message starts its run.
    const healed = await deliver([{ id: "msg-transient", body, attempts: 4 }], recordingEnv().env);
    expect(healed.explicitAcks).toEqual(["msg-transient"]);
    expect(await wire(env).runs.get("default", queueRunId(QUEUE, "msg-transient"))).not.toBeNull();
  });

  it("a message failing on its last attempt is dead-lettered by the consumer with the cause, not retried into Cloudflare's DLQ bare", async () => {
    const broken = new Proxy(env.DB, {
      get: (target, key) =>
        key === "prepare" || key === "batch" || key === "exec"
          ? () => {
              throw new Error("D1_ERROR: Network connection lost.");
            }
          : Reflect.get(target, key),
    });
    const { env: target, letters } = recordingEnv({ ...env, DB: broken } as Env);
    const body = { workflowId: "support.summarize-ticket", input: INPUT };
    // max_retries = DEFAULT_QUEUE_MAX_RETRIES: the first delivery and that many retries.
    const beforeLast = await consume([{ id: "msg-exhausted", body, attempts: DEFAULT_QUEUE_MAX_RETRIES }], target);
    expect(beforeLast.outcomes[0]).toMatchObject({ outcome: "retried", cause: "transient_error" });
    const last = await consume([{ id: "msg-exhausted", body, attempts: DEFAULT_QUEUE_MAX_RETRIES + 1 }], target);
    expect(last.result.explicitAcks).toEqual(["msg-exhausted"]);
    expect(last.result.retryMessages).toEqual([]);
    expect(last.outcomes[0]).toMatchObject({ outcome: "dead_lettered", cause: "transient_error", to: "queued" });
    expect(letters).toEqual([
      expect.objectContaining({
        kind: "little.dead-letter",
        cause: "transient_error",
        message: expect.stringContaining("D1_ERROR"),
        attempts: DEFAULT_QUEUE_MAX_RETRIES + 1,
        body,
      }),
    ]);
    // LITTLE_QUEUE_MAX_RETRIES follows a consumer configured with another max_retries.
    const { env: fewer, letters: fewerLetters } = recordingEnv({ ...env, DB: broken, LITTLE_QUEUE_MAX_RETRIES: "2" } as Env);
    const third = await consume([{ id: "msg-exhausted-2", body, attempts: 3 }], fewer);
    expect(third.outcomes[0]).toMatchObject({ outcome: "dead_lettered", cause: "transient_error" });
    expect(fewerLetters.map((l) => l.messageId)).toEqual(["msg-exhausted-2"]);
  });

  it("a LITTLE_TRIGGER_TENANT that is no tenant name retries the messages that name no tenant (trigger_tenant_invalid)", async () => {
    const { env: target, letters } = recordingEnv({ ...env, LITTLE_TRIGGER_TENANT: "Not/A/Tenant" } as Env);
    const { outcomes, result } = await consume(
      [
        { id: "msg-bad-var", body: { workflowId: "support.summarize-ticket", input: INPUT } },
        { id: "msg-own-tenant", body: { workflowId: "support.summarize-ticket", input: INPUT, tenant: "acme" } },
      ],
      target,
    );
    expect(result.explicitAcks).toEqual(["msg-own-tenant"]);
    expect(result.retryMessages).toEqual([{ msgId: "msg-bad-var" }]);
    expect(outcomes[0]).toMatchObject({ outcome: "retried", cause: "trigger_tenant_invalid" });
    expect(letters).toEqual([]);
  });

  it("a deployed Worker holding well-known example values starts nothing: retried (insecure_configuration) until it is fixed", async () => {
    const deployed = { ...env, LITTLE_ENV: undefined } as unknown as Env;
    const { outcomes, result } = await consume(
      [{ id: "msg-insecure", body: { workflowId: "support.summarize-ticket", input: INPUT } }],
      deployed,
    );
    expect(result.explicitAcks).toEqual([]);
    expect(outcomes[0]).toMatchObject({ outcome: "retried", cause: "insecure_configuration" });
    expect(await wire(env).runs.get("default", queueRunId(QUEUE, "msg-insecure"))).toBeNull();
  });

  it("a dead letter read back by this consumer (bound to the dead-letter queue by mistake) is logged and acked, not sent round again", async () => {
    const { env: target, letters } = recordingEnv();
    await deliver([{ id: "msg-unknown", body: { workflowId: "no.such-workflow" } }], target);
    const [letter] = letters;
    const { result, outcomes } = await consume([{ id: "msg-letter", body: letter }], target);
    expect(result.explicitAcks).toEqual(["msg-letter"]);
    expect(outcomes[0]).toMatchObject({ outcome: "dropped_dead_letter", cause: "workflow_not_found" });
    expect(letters).toHaveLength(1);
  });

  it("a dead letter the dead-letter queue refuses keeps the message (retried) instead of dropping it", async () => {
    const failing = { ...env, LITTLE_DEAD_LETTERS: { send: async () => Promise.reject(new Error("queue unavailable")) } } as Env;
    const { result, outcomes } = await consume([{ id: "msg-dlq-down", body: { workflowId: "no.such-workflow" } }], failing);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: "msg-dlq-down" }]);
    expect(outcomes[0]).toMatchObject({ outcome: "retried", cause: "dead_letter_send_failed" });
  });

  it("without a LITTLE_DEAD_LETTERS binding, and for a dropped letter, the log keeps ids, workflow and a body digest, never the body", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const unbound = { ...env, LITTLE_DEAD_LETTERS: undefined } as unknown as Env;
      const body = { workflowId: "support.summarize-ticket", input: { ticketId: 42, transcript: "Jane Roe, 12 Elm St, card 4111" } };
      const { outcomes, result } = await consume([{ id: "msg-private", body }], unbound);
      expect(result.explicitAcks).toEqual(["msg-private"]);
      expect(outcomes[0]).toMatchObject({ outcome: "dead_lettered", cause: "input_schema_error", to: "logged" });
      const { env: target, letters } = recordingEnv();
      await deliver([{ id: "msg-private-2", body }], target);
      await consume([{ id: "msg-letter-private", body: letters[0] }], target);
      const lines = errors.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("little.dead-letter"));
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).not.toContain("Jane Roe");
        expect(JSON.parse(line)).toMatchObject({
          cause: "input_schema_error",
          workflowId: "support.summarize-ticket",
          bodyDigest: digestJson(body),
          findings: expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining("ticketId") })]),
        });
      }
      expect(JSON.parse(lines[0] as string)).toMatchObject({ messageId: "msg-private" });
      expect(JSON.parse(lines[1] as string)).toMatchObject({
        messageId: "msg-private-2",
        dropped: true,
        droppedMessageId: "msg-letter-private",
      });
    } finally {
      errors.mockRestore();
    }
  });
});
