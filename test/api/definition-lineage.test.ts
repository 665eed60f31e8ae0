/**
 * Definition lineage through the Worker's real fetch handler, D1 and run objects: the projection
 * of every live definition is recorded on an isolate's first request (one batch), a live hash is
 * never answered with re-deploy guidance, an approval freezes its projection with it (audited),
 * and revoking an approval fails closed the runs started under it.
 */
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { D1DefinitionApprovals } from "../../src/adapters/d1/d1-definition-approvals.ts";
import { D1VersionStore } from "../../src/adapters/d1/d1-version-store.ts";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import type { WorkflowDefinitionSnapshot } from "../../src/identity/definition-snapshot.ts";
import { type Digest, digestJson } from "../../src/json/digest.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { sectionLwir, sectionWorkflow } from "../support/section-workflow.ts";
import { toolCallLwir } from "../support/tool-call-lwir.ts";
import { call, runEvents, tenantToken } from "./support/api-call.ts";

const offline = new EnvModelResolver({ mode: "offline", secrets: {} });

/** A section requiring approval; `description` varies its hash, so each test gets fresh definitions. */
function gatedSection(id: string, description: string): RegisteredWorkflow {
  const base = sectionWorkflow(id, "continue");
  return { ...base, definition: { ...base.definition, description, requireApproval: true } };
}

/** Lets the `hold` tool return; set by each call as it starts (the slice is then mid-call). */
let releaseHold: (() => void) | null = null;

/**
 * A workflow requiring approval whose tools stop a run midway: `pay` waits for a person's decision
 * (a tool approval), `hold` stays in flight (the slice is mid-call) until released or aborted.
 */
function gatedTools(description: string): RegisteredWorkflow {
  return {
    definition: defineWorkflow({
      id: "lineage.tools",
      description,
      input: z.object({ text: z.string() }),
      output: z.object({ done: z.string() }),
      models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
      planner: { model: openai("gpt-5"), system: "Plan it." },
      requireApproval: true,
      tools: {
        pay: tool({
          description: "Pay (a person approves each payment)",
          inputSchema: z.object({ text: z.string() }),
          outputSchema: z.object({ done: z.string() }),
          needsApproval: true,
          execute: async ({ text }: { text: string }) => ({ done: text }),
        }),
        hold: tool({
          description: "Hold until released",
          inputSchema: z.object({ text: z.string() }),
          outputSchema: z.object({ done: z.string() }),
          execute: ({ text }: { text: string }, options?: { abortSignal?: AbortSignal }) =>
            new Promise((resolve, reject) => {
              releaseHold = () => resolve({ done: text });
              options?.abortSignal?.addEventListener("abort", () => reject(new Error("aborted")));
            }),
        }),
      },
    }),
    tools: {},
  };
}

function serve(...workflows: RegisteredWorkflow[]) {
  overrideWiring({ models: offline, workflows: catalogOf(workflows) });
}

afterEach(() => overrideWiring({}));

async function projectionRow(hash: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT snapshot_json FROM workflow_definitions WHERE definition_hash = ?")
    .bind(hash)
    .first<{ snapshot_json: string }>();
  return row?.snapshot_json ?? null;
}

async function listedHashes(token?: string): Promise<Record<string, string>> {
  const r = await call("GET", "/v1/workflows", token ? { token } : {});
  expect(r.status).toBe(200);
  return Object.fromEntries((r.json.workflows as { id: string; definitionHash: string }[]).map((w) => [w.id, w.definitionHash]));
}

describe("live projections", () => {
  it("records every live definition on the isolate's first request, so GET /v1/definitions/<hash> answers a listed hash", async () => {
    const nonce = crypto.randomUUID();
    // A new catalog is a fresh Worker: none of these definitions has been seen or stored before.
    serve(gatedSection("lineage.a", `A ${nonce}`), sectionWorkflow("lineage.b", "end"), gatedSection("lineage.c", `C ${nonce}`));
    // The first request touches no definition route at all.
    expect((await call("GET", "/v1/runs")).status).toBe(200);
    const hashes = await listedHashes();
    for (const hash of Object.values(hashes)) expect(await projectionRow(hash), hash).not.toBeNull();
    const a = hashes["lineage.a"] as string;
    const r = await call("GET", `/v1/definitions/${a}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      definitionHash: a,
      workflowId: "lineage.a",
      live: true,
      requiresApproval: true,
      approval: null,
      audit: [],
    });
  });

  it("records a live definition's lost projection again instead of asking for a re-deploy", async () => {
    serve(gatedSection("lineage.lost", `lost ${crypto.randomUUID()}`));
    const hash = (await listedHashes())["lineage.lost"] as string;
    await env.DB.prepare("DELETE FROM workflow_definitions WHERE definition_hash = ?").bind(hash).run();
    const r = await call("GET", `/v1/definitions/${hash}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ definitionHash: hash, live: true });
    expect(await projectionRow(hash)).not.toBeNull();
  });

  it("freezes the projection with the approval (one batch), and audits who approved", async () => {
    const tenant = `freeze_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    serve(gatedSection("lineage.freeze", `freeze ${crypto.randomUUID()}`));
    const hash = (await listedHashes(token))["lineage.freeze"] as string;
    await env.DB.prepare("DELETE FROM workflow_definitions WHERE definition_hash = ?").bind(hash).run();
    // The approval's batch refused (a trigger fails the approval row's insert): neither row is written.
    const gate = `refuse_${tenant}`;
    await env.DB.prepare(
      `CREATE TRIGGER ${gate} BEFORE INSERT ON definition_approvals WHEN NEW.tenant = '${tenant}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    ).run();
    const failed = await call("POST", `/v1/definitions/${hash}/approve`, { token }).finally(() =>
      env.DB.prepare(`DROP TRIGGER ${gate}`).run(),
    );
    expect(failed.status).toBe(500);
    expect(await projectionRow(hash)).toBeNull();
    expect(await new D1DefinitionApprovals(env.DB).get(tenant, hash as Digest)).toBeNull();
    // Approved: the projection row the approval froze is written by its batch (the route records nothing before it).
    const approved = await call("POST", `/v1/definitions/${hash}/approve`, { token });
    expect(approved.status).toBe(200);
    expect(JSON.parse((await projectionRow(hash)) as string)).toMatchObject({ id: "lineage.freeze", approval: "required" });
    const audit = approved.json.audit as { action: string; by: string | null }[];
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "approved", workflowId: "lineage.freeze" });
    expect(audit[0]?.by).toMatch(/^tok_/);
    // Approving again changes nothing and records nothing.
    expect(((await call("POST", `/v1/definitions/${hash}/approve`, { token })).json.audit as unknown[]).length).toBe(1);
  });
});

describe("D1: an approval and its projection are one transaction", () => {
  it("writes both, or (the approval row refused) neither", async () => {
    const approvals = new D1DefinitionApprovals(env.DB);
    const snapshot = { id: "lineage.tx", nonce: crypto.randomUUID() } as unknown as WorkflowDefinitionSnapshot;
    const hash = digestJson(snapshot);
    const tenant = `tx_${crypto.randomUUID().slice(0, 8)}`;
    // A NOT NULL column left null: the approval's insert fails, and the projection's is rolled back with it.
    await expect(
      approvals.approve({ tenant, definitionHash: hash, workflowId: null as unknown as string, at: 1, projection: snapshot }),
    ).rejects.toThrow();
    expect(await projectionRow(hash)).toBeNull();
    expect(await approvals.get(tenant, hash)).toBeNull();
    await approvals.approve({ tenant, definitionHash: hash, workflowId: "lineage.tx", at: 2, projection: snapshot });
    expect(await projectionRow(hash)).not.toBeNull();
    expect(await new D1VersionStore(env.DB).getDefinition(hash)).toEqual(snapshot);
  });
});

describe("DELETE /v1/definitions/:hash/approve", () => {
  let workflow: RegisteredWorkflow;
  beforeEach(() => {
    workflow = gatedSection("lineage.revoke", `revoke ${crypto.randomUUID()}`);
    serve(workflow, sectionWorkflow("lineage.open", "continue"));
  });

  async function approvedSection(token: string): Promise<{ hash: string; runId: string }> {
    const hash = (await listedHashes(token))["lineage.revoke"] as string;
    expect((await call("POST", `/v1/definitions/${hash}/approve`, { token })).status).toBe(200);
    const r = await call("POST", "/v1/lwir/runs?wait=20", {
      token,
      body: { lwir: await sectionLwir(workflow), input: { text: "first", fail: false } },
    });
    expect(r.status).toBe(202);
    const run = r.json.run as { runId: string; status: string };
    expect(run.status).toBe("waiting");
    return { hash, runId: run.runId };
  }

  it("revokes (admin scope, audited), fails the waiting section closed, and refuses later starts and triggers", async () => {
    const tenant = `revoke_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const { hash, runId } = await approvedSection(token);
    // Scope-checked like approve: a runs:write token may not revoke.
    const narrow = await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant, scopes: ["runs:read", "runs:write"] } });
    const refused = await call("DELETE", `/v1/definitions/${hash}/approve`, { token: narrow.json.token as string });
    expect([refused.status, refused.json.error?.code]).toEqual([403, "insufficient_scope"]);

    const revoked = await call("DELETE", `/v1/definitions/${hash}/approve`, { token });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ definitionHash: hash, workflowId: "lineage.revoke", endedRuns: [runId] });
    const run = (await call("GET", `/v1/runs/${runId}`, { token })).json.run as { status: string; cause?: { code: string } };
    expect(run.status).toBe("failed");
    const events = await runEvents(runId, token);
    expect(events.at(-1)).toMatchObject({ type: "RunFailed", payload: { causeCode: "definition_approval_revoked" } });
    const trigger = await call("POST", `/v1/runs/${runId}/triggers`, { token, body: { input: { text: "late", fail: false } } });
    expect([trigger.status, trigger.json.error?.code]).toEqual([409, "run_ended"]);
    const start = await call("POST", "/v1/lwir/runs", {
      token,
      body: { lwir: await sectionLwir(workflow), input: { text: "again", fail: false } },
    });
    expect([start.status, start.json.error?.code]).toEqual([403, "definition_not_approved"]);
    // Audited, and a second revocation finds nothing.
    const view = await call("GET", `/v1/definitions/${hash}`, { token });
    expect((view.json.audit as { action: string }[]).map((e) => e.action)).toEqual(["approved", "revoked"]);
    expect(view.json.approval).toBeNull();
    const again = await call("DELETE", `/v1/definitions/${hash}/approve`, { token });
    expect([again.status, again.json.error?.code]).toEqual([404, "definition_approval_not_found"]);
  }, 60_000);

  it("a run the sweep did not reach fails closed at its next slice, before any step", async () => {
    const tenant = `revslice_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const { hash, runId } = await approvedSection(token);
    // Revoked behind the API's back: no sweep ends the run.
    expect(await new D1DefinitionApprovals(env.DB).revoke({ tenant, definitionHash: hash as Digest, at: Date.now() })).not.toBeNull();
    const r = await call("POST", `/v1/runs/${runId}/triggers?wait=20`, { token, body: { input: { text: "second", fail: false } } });
    expect((r.json.run as { status: string }).status).toBe("failed");
    const events = await runEvents(runId, token);
    expect(events.at(-1)).toMatchObject({ type: "RunFailed", payload: { causeCode: "definition_approval_revoked" } });
    expect(events.filter((e) => e.type === "StepStarted" && String(e.payload.stepPath).startsWith("o2/"))).toEqual([]);
  }, 60_000);

  it("revoked and approved again is another approval: a run started under the first fails closed at its next slice", async () => {
    const tenant = `reapprove_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const { hash, runId } = await approvedSection(token);
    const approvals = new D1DefinitionApprovals(env.DB);
    const first = await approvals.get(tenant, hash as Digest);
    // Revoked behind the API's back (the sweep missed the run), then approved again before its next slice.
    await approvals.revoke({ tenant, definitionHash: hash as Digest, at: Date.now() });
    await approvals.approve({ tenant, definitionHash: hash as Digest, workflowId: "lineage.revoke", at: (first?.approvedAt ?? 0) + 1 });
    const r = await call("POST", `/v1/runs/${runId}/triggers?wait=20`, { token, body: { input: { text: "second", fail: false } } });
    expect((r.json.run as { status: string }).status).toBe("failed");
    expect((await runEvents(runId, token)).at(-1)).toMatchObject({
      type: "RunFailed",
      payload: { causeCode: "definition_approval_revoked" },
    });
  }, 60_000);

  it("a sweep of the first approval leaves a run started under the re-approval alone", async () => {
    const tenant = `resweep_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const { hash, runId: old } = await approvedSection(token);
    const approvals = new D1DefinitionApprovals(env.DB);
    const first = (await approvals.get(tenant, hash as Digest))?.approvedAt as number;
    await approvals.revoke({ tenant, definitionHash: hash as Digest, at: Date.now() });
    const { runId: fresh } = await approvedSection(token);
    const second = (await approvals.get(tenant, hash as Digest))?.approvedAt as number;
    expect(second).not.toBe(first);
    const requested = (await runEvents(fresh, token)).find((e) => e.type === "RunRequested");
    expect(requested?.payload).toMatchObject({ approvedDefinitionHash: hash, approvedAt: second });
    // The first revocation's sweep, still running: it ends the run started under the first approval only.
    const sweep = {
      causeCode: "definition_approval_revoked",
      message: "revoked",
      only: { approvedDefinitionHash: hash as Digest, approvedAt: first },
    } as const;
    await expect(runStub(fresh, tenant).end(sweep)).rejects.toMatchObject({ name: "RunEndRefusedError", code: "run_not_under_approval" });
    expect(await runStub(old, tenant).end(sweep)).toMatchObject({ ended: true });
    expect(((await call("GET", `/v1/runs/${fresh}`, { token })).json.run as { status: string }).status).toBe("waiting");
  }, 60_000);

  it.each(["pay", "hold"] as const)(
    "fails closed a run in the middle of its work (%s: waiting on a tool approval / mid-slice in a call)",
    async (toolName) => {
      const tenant = `revmid_${toolName}_${crypto.randomUUID().slice(0, 8)}`;
      const token = await tenantToken(tenant);
      const w = gatedTools(`tools ${crypto.randomUUID()}`);
      serve(w);
      releaseHold = null;
      const hash = (await listedHashes(token))["lineage.tools"] as string;
      expect((await call("POST", `/v1/definitions/${hash}/approve`, { token })).status).toBe(200);
      const started = await call("POST", "/v1/lwir/runs", {
        token,
        body: { lwir: await toolCallLwir(w, toolName, { text: "{{ input.text }}" }), input: { text: "x" } },
      });
      const runId = (started.json.run as { runId: string }).runId;
      // Until the run is where the case needs it: waiting for a decision, or inside the held call.
      for (let i = 0; i < 200; i++) {
        const events = await runEvents(runId, token);
        if (toolName === "pay" ? events.some((e) => e.type === "ApprovalRequested") : releaseHold !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      if (toolName === "pay") {
        const run = (await call("GET", `/v1/runs/${runId}`, { token })).json.run as { status: string; waitReason?: string };
        expect(run).toMatchObject({ status: "waiting", waitReason: "approval" });
      } else expect(releaseHold).not.toBeNull();
      const revoked = await call("DELETE", `/v1/definitions/${hash}/approve`, { token });
      expect(revoked.json.endedRuns).toEqual([runId]);
      (releaseHold as (() => void) | null)?.(); // a call that returns after the end records nothing
      const view = (await call("GET", `/v1/runs/${runId}?wait=20`, { token })).json.run as { status: string };
      expect(view.status).toBe("failed");
      const events = await runEvents(runId, token);
      expect(events.at(-1)).toMatchObject({ type: "RunFailed", payload: { causeCode: "definition_approval_revoked" } });
      expect(events.filter((e) => e.type === "StepSucceeded")).toEqual([]);
    },
    60_000,
  );

  it("leaves runs of another definition alone", async () => {
    const tenant = `revother_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const { hash } = await approvedSection(token);
    const open = sectionWorkflow("lineage.open", "continue");
    const other = await call("POST", "/v1/lwir/runs?wait=20", {
      token,
      body: { lwir: await sectionLwir(open), input: { text: "x", fail: false } },
    });
    const otherId = (other.json.run as { runId: string }).runId;
    await call("DELETE", `/v1/definitions/${hash}/approve`, { token });
    expect(((await call("GET", `/v1/runs/${otherId}`, { token })).json.run as { status: string }).status).toBe("waiting");
  }, 60_000);
});
