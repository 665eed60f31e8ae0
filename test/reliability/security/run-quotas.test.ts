import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { app } from "../../../src/api/app.ts";
import { DEFAULT_RUN_QUOTAS, type RunQuotas, runQuotasFromVars } from "../../../src/engine/run-quotas.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { driveToEnd } from "../../support/drive.ts";
import { liveSeed } from "./support/seed-lwir.ts";

// Issue 15, finding 6 (per-run limits): an LWIR bigger than D1's row limit ended in
// `internal_error` after five retries, and nothing bounded a run's model tokens or its event log
// (which the run object loads whole). Through the real app, run objects and D1: each limit ends
// the run with a named cause, and an oversized LWIR given to `POST /v1/lwir/runs` is a 413 with
// nothing stored.

const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const WORKFLOW = "support.summarize-ticket";
const INPUT = { ticketId: "T-7", transcript: "Invoices are emailed twice since Monday." };
const DEV = "test-dev-token";

afterEach(() => overrideWiring({}));

async function call(vars: Record<string, string>, method: string, path: string, body?: unknown) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://little.test${path}`, {
      method,
      headers: { authorization: `Bearer ${DEV}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
    { ...env, ...vars },
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, json: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** Starts the seed workflow (offline planner) under these quotas and drives it to its end. */
async function runUnder(quotas: Partial<RunQuotas>, runId: string) {
  overrideWiring({ models: OFFLINE, runQuotas: { ...DEFAULT_RUN_QUOTAS, ...quotas } });
  const started = await call({}, "POST", `/v1/workflows/${WORKFLOW}/runs`, { input: INPUT, runId });
  expect(started.status).toBe(202);
  await driveToEnd(runId, 40, "dev");
  const events = (await call({}, "GET", `/v1/runs/${runId}/events?limit=1000`)).json.events as {
    type: string;
    payload: Record<string, unknown>;
  }[];
  return { events, last: events.at(-1) };
}

describe("per-run quotas end the run with a named cause", () => {
  it("a planner's LWIR over LITTLE_QUOTA_LWIR_BYTES: lwir_too_large, nothing registered", async () => {
    const { events, last } = await runUnder({ lwirBytes: 200 }, "q_lwir_planner");
    expect(last?.type).toBe("RunFailed");
    expect(last?.payload.causeCode).toBe("lwir_too_large");
    expect(events.some((e) => e.type === "WorkflowVersionRegistered")).toBe(false);
    const row = await env.DB.prepare("SELECT version_id, status FROM runs WHERE tenant = 'dev' AND run_id = 'q_lwir_planner'").first();
    expect(row).toMatchObject({ version_id: null, status: "failed" });
  });

  it("model tokens over LITTLE_QUOTA_TOKENS_PER_RUN: model_tokens_exceeded, no model call after", async () => {
    const { events, last } = await runUnder({ modelTokens: 10 }, "q_tokens");
    expect(last?.type).toBe("RunFailed");
    expect(last?.payload.causeCode).toBe("model_tokens_exceeded");
    const responded = events.filter((e) => e.type === "harness.model.responded");
    expect(responded).toHaveLength(1);
    expect(events.filter((e) => e.type === "harness.model.called")).toHaveLength(1);
  });

  it("an event log over LITTLE_QUOTA_EVENT_LOG_BYTES: event_log_too_large", async () => {
    const { events, last } = await runUnder({ eventLogBytes: 4_000 }, "q_log");
    expect(last?.type).toBe("RunFailed");
    expect(last?.payload.causeCode).toBe("event_log_too_large");
    expect(events.some((e) => e.type === "RunCompleted")).toBe(false);
  });

  it("with the defaults the same run completes", async () => {
    const { last } = await runUnder({}, "q_defaults");
    expect(last?.type).toBe("RunCompleted");
  });
});

describe("an oversized LWIR given to POST /v1/lwir/runs", () => {
  it("is 413 lwir_too_large with no run created (it used to end in internal_error after five retries)", async () => {
    overrideWiring({ models: OFFLINE });
    const { lwir } = await liveSeed();
    const over = await call({ LITTLE_QUOTA_LWIR_BYTES: "500" }, "POST", "/v1/lwir/runs", { lwir, input: INPUT, runId: "q_lwir_api" });
    expect({ status: over.status, code: (over.json.error as { code: string }).code }).toEqual({ status: 413, code: "lwir_too_large" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM runs WHERE run_id = 'q_lwir_api'").first()).toEqual({ n: 0 });
    expect((await call({}, "GET", "/v1/runs/q_lwir_api")).status).toBe(404);
    // Under the limit it starts.
    expect((await call({}, "POST", "/v1/lwir/runs", { lwir, input: INPUT, runId: "q_lwir_api_ok" })).status).toBe(202);
  });

  it("the vars fall back to their defaults when malformed", () => {
    expect(
      runQuotasFromVars({ LITTLE_QUOTA_LWIR_BYTES: "1e6", LITTLE_QUOTA_TOKENS_PER_RUN: "-5", LITTLE_QUOTA_EVENT_LOG_BYTES: "" }),
    ).toEqual(DEFAULT_RUN_QUOTAS);
    expect(
      runQuotasFromVars({ LITTLE_QUOTA_LWIR_BYTES: "4096", LITTLE_QUOTA_TOKENS_PER_RUN: "100", LITTLE_QUOTA_EVENT_LOG_BYTES: "65536" }),
    ).toEqual({
      lwirBytes: 4096,
      modelTokens: 100,
      eventLogBytes: 65536,
    });
  });
});
