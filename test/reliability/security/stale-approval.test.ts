/**
 * The start path keeps its read of a tenant's approval for a short window (approval-reads.ts) so a
 * start's ack does not wait for D1 each time. A revocation this isolate's API did not see (made in
 * another isolate: here, the row deleted behind the API's back) can then be read stale: the start
 * is acknowledged, and the run object, which re-reads the approval before the first step, fails
 * it closed with `definition_approval_revoked` before any planner session or step. A revocation
 * through this isolate's API is honoured at once: the next start is refused. Through the real
 * path: the Worker's fetch handler, run objects, D1.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, runEvents, tenantToken } from "../../api/support/api-call.ts";

const INPUT = { ticketId: "T-32", transcript: "The refund never arrived." };
const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
const gated: RegisteredWorkflow = {
  definition: defineWorkflow({
    ...summarizeTicketDefinition,
    id: "gated.stale",
    description: "Summarize (approval required).",
    requireApproval: true,
  }),
  tools: {},
};

beforeEach(() => overrideWiring({ models: offline, workflows: catalogOf([gated]) }));
afterEach(() => overrideWiring({}));

type Run = { runId: string; status: string; cause?: { code: string } };

async function approvedHash(token: string): Promise<string> {
  const hash = ((await call("GET", "/v1/workflows/gated.stale/definition", { token })).json as { definitionHash: string }).definitionHash;
  expect((await call("POST", `/v1/definitions/${hash}/approve`, { token })).status).toBe(200);
  return hash;
}

describe("a start acknowledged on a stale approval read", () => {
  it("fails closed before any planner session or step when the approval was revoked elsewhere", async () => {
    const tenant = `stale_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const hash = await approvedHash(token);
    const first = (await call("POST", "/v1/workflows/gated.stale/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(first.status).toBe("completed");
    // Revoked where this isolate's API does not see it: the start path's read is now stale.
    await env.DB.prepare("DELETE FROM definition_approvals WHERE tenant = ? AND definition_hash = ?").bind(tenant, hash).run();
    const second = await call("POST", "/v1/workflows/gated.stale/runs?wait=30", { token, body: { input: INPUT } });
    expect(second.status).toBe(200);
    const run = second.json.run as Run;
    expect([run.status, run.cause?.code]).toEqual(["failed", "definition_approval_revoked"]);
    const events = await runEvents(run.runId, token);
    expect(events.filter((e) => e.type === "harness.session.started" || e.type === "StepStarted" || e.type === "RunStarted")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "RunFailed", payload: { causeCode: "definition_approval_revoked" } });
  });

  it("is not made after a revocation through this isolate's API: the next start is refused at once", async () => {
    const token = await tenantToken(`stale_${crypto.randomUUID().slice(0, 8)}`);
    const hash = await approvedHash(token);
    const first = (await call("POST", "/v1/workflows/gated.stale/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(first.status).toBe("completed");
    expect((await call("DELETE", `/v1/definitions/${hash}/approve`, { token })).status).toBe(200);
    const refused = await call("POST", "/v1/workflows/gated.stale/runs", { token, body: { input: INPUT } });
    expect([refused.status, refused.json.error?.code]).toEqual([403, "definition_not_approved"]);
    // Approved again: honoured at once (an absent approval of a gated definition is never kept).
    expect((await call("POST", `/v1/definitions/${hash}/approve`, { token })).status).toBe(200);
    const again = (await call("POST", "/v1/workflows/gated.stale/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(again.status).toBe("completed");
  });
});
