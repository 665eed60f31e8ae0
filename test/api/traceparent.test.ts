/**
 * A W3C `traceparent` on a start (docs/observability.md) is recorded on `RunRequested`, normalized,
 * through the one start service whichever door the start came through (HTTP header, RPC option,
 * queue message field), and the run view shows the trace id; a malformed one is ignored.
 */
import { createMessageBatch } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { traceIdOf } from "../../src/engine/observability/trace-context.ts";
import { consumeRunMessages } from "../../src/triggers/queue-consumer.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call, runEvents } from "./support/api-call.ts";

const INPUT = { ticketId: "T-TP", transcript: "The export button does nothing." };
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`;
/** LITTLE_WEBHOOK_SECRET in vitest.config.ts (tenant dev). */
const WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

/** The run's `RunRequested` payload (every run here is the dev tenant's). */
async function requested(runId: string) {
  const events = await runEvents(runId);
  return events.find((e) => e.type === "RunRequested")?.payload as { traceparent?: string } | undefined;
}

describe("traceparent in", () => {
  it("HTTP: the header is recorded normalized, and the run's traceId is the caller's", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: { input: INPUT },
      headers: { traceparent: PARENT },
    });
    expect(r.status, r.text).toBe(202);
    const run = r.json.run as { runId: string; traceId?: string };
    expect(run.traceId).toBe(TRACE);
    expect((await requested(run.runId))?.traceparent).toBe(`00-${TRACE}-00f067aa0ba902b7-01`);
    expect(((await call("GET", `/v1/runs/${run.runId}`)).json.run as { traceId?: string }).traceId).toBe(TRACE);
  });

  it("HTTP: a malformed traceparent is ignored: the run starts with a trace of its own", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: { input: INPUT },
      headers: { traceparent: "00-zz-yy-01" },
    });
    expect(r.status, r.text).toBe(202);
    const run = r.json.run as { runId: string; traceId?: string };
    expect(run.traceId).toBe(traceIdOf(run.runId, null));
    expect((await requested(run.runId))?.traceparent).toBeUndefined();
  });

  it("webhooks: the delivery's traceparent header is recorded", async () => {
    const body = JSON.stringify(INPUT);
    const at = new Date();
    const id = `msg_tp_${Date.now()}`;
    const res = await exports.default.fetch("http://little.test/v1/hooks/support.summarize-ticket", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": new Webhook(WEBHOOK_SECRET).sign(id, at, body),
        traceparent: PARENT,
      },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const run = ((await res.json()) as { run: { runId: string; traceId?: string } }).run;
    expect(run.traceId).toBe(TRACE);
  });

  it("RPC: the option is recorded", async () => {
    const binding = exports.LittleWorkflowEntrypoint({ props: { tenant: "dev" } });
    const run = (await binding.startRun("support.summarize-ticket", INPUT, { traceparent: PARENT })) as { runId: string; traceId?: string };
    expect(run.traceId).toBe(TRACE);
  });

  it("queue: the message field is recorded", async () => {
    const batch = createMessageBatch("little-workflow-runs", [
      {
        id: "tp-msg-1",
        timestamp: new Date(0),
        attempts: 1,
        body: { workflowId: "support.summarize-ticket", input: INPUT, tenant: "dev", traceparent: PARENT },
      },
    ]);
    const [outcome] = await consumeRunMessages(batch, env);
    expect(outcome?.outcome).toBe("started");
    const runId = (outcome as { runId: string }).runId;
    expect((await requested(runId))?.traceparent).toBe(`00-${TRACE}-00f067aa0ba902b7-01`);
  });
});
