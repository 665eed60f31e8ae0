import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call, runEvents, tenantToken } from "./support/api-call.ts";

const INPUT = { ticketId: "T-9", transcript: "Refund please, I was billed twice." };
const offline = new EnvModelResolver({ mode: "offline", secrets: {} });

/** The seed example under another id, requiring approval; `description` varies the definition. */
function gated(description = "Summarize a ticket (approval required)."): RegisteredWorkflow {
  return {
    definition: defineWorkflow({ ...summarizeTicketDefinition, id: "gated.summarize", description, requireApproval: true }),
    tools: {},
  };
}
const plain: RegisteredWorkflow = { definition: defineWorkflow(summarizeTicketDefinition), tools: {} };

function serve(...workflows: RegisteredWorkflow[]) {
  overrideWiring({ models: offline, workflows: catalogOf(workflows) });
}

beforeEach(() => serve(gated(), plain));
afterEach(() => overrideWiring({}));

const start = (workflowId: string, token?: string) =>
  call("POST", `/v1/workflows/${workflowId}/runs?wait=30`, { body: { input: INPUT }, ...(token ? { token } : {}) });
const liveDefinition = async (workflowId = "gated.summarize") => {
  const r = await call("GET", `/v1/workflows/${workflowId}/definition`);
  expect(r.status).toBe(200);
  return r.json as {
    definitionHash: string;
    requiresApproval: boolean;
    approval: { pinnedVersionId: string | null } | null;
    snapshot: Record<string, unknown>;
  };
};
const plannerSessions = (events: { type: string; payload: Record<string, unknown> }[]) =>
  events.filter((e) => e.type === "harness.session.started" && e.payload.role === "planner").length;
const modelCalls = (events: { type: string }[]) => events.filter((e) => e.type === "harness.model.called").length;

describe("approved definitions", () => {
  it("refuses an unapproved definition before creating anything, and starts once its hash is approved", async () => {
    const tenant = `appr_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const refused = await start("gated.summarize", token);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe("definition_not_approved");
    expect(refused.json.error?.message).toContain("/approve");
    const listed = await call("GET", "/v1/runs?workflow=gated.summarize", { token });
    expect(listed.json.runs).toEqual([]);

    const live = await liveDefinition();
    expect(live.requiresApproval).toBe(true);
    expect(live.snapshot).toMatchObject({ id: "gated.summarize", approval: "required" });
    const approved = await call("POST", `/v1/definitions/${live.definitionHash}/approve`, { token });
    expect(approved.status).toBe(200);
    expect(approved.json.approval).toMatchObject({ pinnedVersionId: null });
    const ran = await start("gated.summarize", token);
    expect(ran.status).toBe(200);
    expect((ran.json.run as { status: string }).status).toBe("completed");
    // Approval is per tenant: the dev tenant has not approved this hash.
    expect((await start("gated.summarize")).json.error?.code).toBe("definition_not_approved");
  });

  it("fails closed when the live definition changes after approval (its hash is no longer the approved one)", async () => {
    const tenant = `drift_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const before = await liveDefinition();
    expect((await call("POST", `/v1/definitions/${before.definitionHash}/approve`, { token })).status).toBe(200);
    serve(gated("Summarize a ticket, now with a different prompt."), plain);
    const after = await liveDefinition();
    expect(after.definitionHash).not.toBe(before.definitionHash);
    const refused = await start("gated.summarize", token);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe("definition_not_approved");
    // The old projection stays readable by its hash for the tenant that approved it.
    const old = await call("GET", `/v1/definitions/${before.definitionHash}`, { token });
    expect(old.status).toBe(200);
    expect(old.json).toMatchObject({ live: false, approval: { pinnedVersionId: null } });
  });

  it("answers a known hash whose projection is gone with a named 409 and re-deploy guidance, never a 500", async () => {
    const tenant = `gone_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const live = await liveDefinition();
    await call("POST", `/v1/definitions/${live.definitionHash}/approve`, { token });
    serve(gated("Another description, so the approved hash is not live."), plain);
    await env.DB.prepare("DELETE FROM workflow_definitions WHERE definition_hash = ?").bind(live.definitionHash).run();
    const r = await call("GET", `/v1/definitions/${live.definitionHash}`, { token });
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe("definition_projection_missing");
    expect(r.json.error?.message).toMatch(/Re-deploy/);
    expect((await call("POST", `/v1/definitions/${live.definitionHash}/approve`, { token })).json.error?.code).toBe(
      "definition_projection_missing",
    );
  });

  it("hides hashes the tenant neither runs live nor approved, and rejects malformed ones", async () => {
    const tenant = `other_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const unknown = `sha256:${"ab".repeat(32)}`;
    expect((await call("GET", `/v1/definitions/${unknown}`, { token })).json.error?.code).toBe("definition_not_found");
    expect((await call("POST", `/v1/definitions/${unknown}/approve`, { token })).status).toBe(404);
    expect((await call("GET", "/v1/definitions/not-a-hash", { token })).status).toBe(400);
    expect((await call("GET", `/v1/definitions/${unknown}`, { token: null })).status).toBe(401);
  });
});

describe("pinned versions (plan once, run many)", () => {
  it("runs a pinned version with zero planner calls, on the same version, and plans again once unpinned", async () => {
    const tenant = `pin_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const live = await liveDefinition();
    await call("POST", `/v1/definitions/${live.definitionHash}/approve`, { token });
    const first = await start("gated.summarize", token);
    const firstRun = first.json.run as { runId: string; versionId: string };
    const firstEvents = await runEvents(firstRun.runId, token);
    expect(plannerSessions(firstEvents)).toBe(1);

    const pinned = await call("POST", `/v1/definitions/${live.definitionHash}/pin`, { token, body: { versionId: firstRun.versionId } });
    expect(pinned.status).toBe(200);
    expect(pinned.json.approval).toMatchObject({ pinnedVersionId: firstRun.versionId });

    const second = await start("gated.summarize", token);
    const secondRun = second.json.run as { runId: string; status: string; versionId: string };
    expect(secondRun.status).toBe("completed");
    expect(secondRun.versionId).toBe(firstRun.versionId);
    const secondEvents = await runEvents(secondRun.runId, token);
    expect(plannerSessions(secondEvents)).toBe(0);
    expect(modelCalls(secondEvents)).toBeLessThan(modelCalls(firstEvents));
    expect(secondEvents[0]?.payload).toMatchObject({ pinnedVersionId: firstRun.versionId, approvedDefinitionHash: live.definitionHash });

    expect((await call("DELETE", `/v1/definitions/${live.definitionHash}/pin`, { token })).json.approval).toMatchObject({
      pinnedVersionId: null,
    });
    const third = await start("gated.summarize", token);
    expect(plannerSessions(await runEvents((third.json.run as { runId: string }).runId, token))).toBe(1);
  });

  it("refuses to pin without approval, a version the tenant never produced, or one that does not bind", async () => {
    const tenant = `pinbad_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const gatedHash = (await liveDefinition()).definitionHash;
    const plainHash = (await liveDefinition("support.summarize-ticket")).definitionHash;
    const plainRun = (await start("support.summarize-ticket", token)).json.run as { versionId: string };
    const notApproved = await call("POST", `/v1/definitions/${gatedHash}/pin`, { token, body: { versionId: plainRun.versionId } });
    expect(notApproved.status).toBe(409);
    expect(notApproved.json.error?.code).toBe("definition_not_approved");
    await call("POST", `/v1/definitions/${gatedHash}/approve`, { token });
    const foreign = await call("POST", `/v1/definitions/${gatedHash}/pin`, { token, body: { versionId: "wfver_0000000000000000" } });
    expect(foreign.json.error?.code).toBe("version_not_found");
    // The plain workflow's version binds to the plain definition, not the gated one (another id).
    const mismatch = await call("POST", `/v1/definitions/${gatedHash}/pin`, { token, body: { versionId: plainRun.versionId } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.error?.code).toBe("lwir_invalid");
    // Pinning also works for a definition that does not require approval, once approved.
    await call("POST", `/v1/definitions/${plainHash}/approve`, { token });
    expect((await call("POST", `/v1/definitions/${plainHash}/pin`, { token, body: { versionId: plainRun.versionId } })).status).toBe(200);
  });
});
