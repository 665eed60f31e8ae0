import { env, exports } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { stepsLwir } from "../support/wait-lwir.ts";
import { call, tenantToken } from "./support/api-call.ts";

const INPUT = { ticketId: "T-77", transcript: "Please delete my data." };
const SUMMARIZE = "/v1/workflows/support.summarize-ticket/runs";

const waiting: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.delete-wait",
    description: "Waits for a signal.",
    input: z.object({ orderId: z.string() }),
    output: z.looseObject({}),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a wait." },
    signals: { go: { schema: z.object({}), description: "Go" } },
  }),
  tools: {},
};

const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
beforeEach(() => overrideWiring({ models: OFFLINE }));
afterEach(() => overrideWiring({}));

async function completedRun(token?: string, extra: { runId?: string; key?: string } = {}): Promise<string> {
  const r = await call("POST", `${SUMMARIZE}?wait=30`, {
    body: { input: INPUT, ...(extra.runId ? { runId: extra.runId } : {}) },
    ...(token ? { token } : {}),
    ...(extra.key ? { headers: { "idempotency-key": extra.key } } : {}),
  });
  expect(r.status, r.text).toBe(200);
  return (r.json.run as { runId: string }).runId;
}

async function waitingRun(): Promise<string> {
  overrideWiring({ models: OFFLINE, workflows: catalogOf([waiting]) });
  const lwir = await stepsLwir(waiting, [{ id: "wait", uses: "wait.signal", with: { signals: ["go"], timeoutMs: 600_000 } }]);
  const r = await call("POST", "/v1/lwir/runs", { body: { lwir, input: { orderId: "o-1" } } });
  expect(r.status, r.text).toBe(202);
  const runId = (r.json.run as { runId: string }).runId;
  for (let i = 0; i < 100; i++) {
    if (((await call("GET", `/v1/runs/${runId}`)).json.run as { status: string }).status === "waiting") return runId;
    await runStub(runId, "dev").waitForEnd(50);
  }
  throw new Error("the run never waited");
}

const code = (r: { json: { error?: { code: string } } }) => r.json.error?.code;

describe("DELETE /v1/runs/:runId", () => {
  it("deletes an ended run; then every route for it answers 410 run_deleted, and its id and key never start a run again", async () => {
    const key = `key-${crypto.randomUUID()}`;
    const runId = await completedRun(undefined, { key });
    const deleted = await call("DELETE", `/v1/runs/${runId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.deleted).toMatchObject({ runId, workflowId: "support.summarize-ticket", by: "dev" });

    const routes: [string, string, unknown?][] = [
      ["GET", `/v1/runs/${runId}`],
      ["GET", `/v1/runs/${runId}/events`],
      ["GET", `/v1/runs/${runId}/events/stream`],
      ["GET", `/v1/runs/${runId}/approvals`],
      ["GET", `/v1/runs/${runId}/signals`],
      ["POST", `/v1/runs/${runId}/signals`, { name: "go", payload: {} }],
      ["POST", `/v1/runs/${runId}/cancel`],
      ["POST", `/v1/runs/${runId}/approvals/apr_x`, { decision: "approve", argsHash: `sha256:${"0".repeat(64)}` }],
      ["DELETE", `/v1/runs/${runId}`],
    ];
    for (const [method, path, body] of routes) {
      const r = await call(method, path, body === undefined ? {} : { body });
      expect({ path, method, status: r.status, code: code(r) }).toEqual({ path, method, status: 410, code: "run_deleted" });
    }
    // The same run id, and the idempotency key that derived it, are refused: nothing starts.
    const again = await call("POST", SUMMARIZE, { body: { input: INPUT, runId } });
    expect({ status: again.status, code: code(again) }).toEqual({ status: 410, code: "run_deleted" });
    const keyed = await call("POST", SUMMARIZE, { body: { input: INPUT }, headers: { "idempotency-key": key } });
    expect({ status: keyed.status, code: code(keyed) }).toEqual({ status: 410, code: "run_deleted" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM runs WHERE run_id = ?").bind(runId).first("n")).toBe(0);
    // The inspector's page for it says so, with a 410.
    const page = await exports.default.fetch(`http://little.test/runs/${runId}`, { headers: { authorization: "Bearer test-dev-token" } });
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("Run deleted");
  });

  it("refuses a run that has not ended (409 run_active, nothing deleted); ?cancel=true cancels it first", async () => {
    const runId = await waitingRun();
    const refused = await call("DELETE", `/v1/runs/${runId}`);
    expect({ status: refused.status, code: code(refused) }).toEqual({ status: 409, code: "run_active" });
    expect(((await call("GET", `/v1/runs/${runId}`)).json.run as { status: string }).status).toBe("waiting");
    const deleted = await call("DELETE", `/v1/runs/${runId}?cancel=true`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await call("GET", `/v1/runs/${runId}`)).status).toBe(410);
  });

  it("another tenant's run is 404 and stays; an unknown run is 404; a token without runs:delete is 403", async () => {
    const tenant = `del${crypto.randomUUID().slice(0, 8)}`;
    const other = await tenantToken(tenant);
    const runId = await completedRun(other);
    const r = await call("DELETE", `/v1/runs/${runId}`);
    expect({ status: r.status, code: code(r) }).toEqual({ status: 404, code: "run_not_found" });
    expect((await call("GET", `/v1/runs/${runId}`, { token: other })).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM run_tombstones WHERE run_id = ?").bind(runId).first("n")).toBe(0);
    expect(code(await call("DELETE", "/v1/runs/run_never_was"))).toBe("run_not_found");

    const made = await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant, scopes: ["runs:read", "runs:write"] } });
    const writer = made.json.token as string;
    const refused = await call("DELETE", `/v1/runs/${runId}`, { token: writer });
    expect({ status: refused.status, code: code(refused) }).toEqual({ status: 403, code: "insufficient_scope" });
    expect((await call("DELETE", `/v1/runs/${runId}`, { token: other })).status).toBe(200);
  });
});
