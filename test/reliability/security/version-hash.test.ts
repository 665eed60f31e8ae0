/**
 * Issue 15, item 3: version ids are 64 bits and the first writer won. `getVersion`/`pinnedLwir`
 * checked only that the stored text hashed to the short id, and registering a document whose
 * `wfver_` id another document already held was a silent no-op. Now versions are kept, looked up
 * and pinned by their full sha256 hash, a colliding id is refused by name, and pinned runs execute
 * exactly the pinned hash. Through the real path: the Worker's fetch handler, run objects, D1.
 *
 * A real 64-bit prefix collision is not computed here (~2^32 hashes): the forged rows below stand
 * in for one, each honest about its own full hash, so the checks under test are the ones that
 * compare full hashes, not the ones that re-hash a row.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../../src/examples/support-summarize-ticket.ts";
import { contentAddress } from "../../../src/identity/workflow-version.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, runEvents, tenantToken } from "../../api/support/api-call.ts";
import { liveSeed } from "./support/seed-lwir.ts";

const INPUT = { ticketId: "T-15", transcript: "Billed twice; please refund one of them." };
const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
const gated: RegisteredWorkflow = {
  definition: defineWorkflow({
    ...summarizeTicketDefinition,
    id: "gated.versions",
    description: "Summarize (approval required).",
    requireApproval: true,
  }),
  tools: {},
};
const plain: RegisteredWorkflow = { definition: defineWorkflow(summarizeTicketDefinition), tools: {} };

beforeEach(() => overrideWiring({ models: offline, workflows: catalogOf([gated, plain]) }));
afterEach(() => overrideWiring({}));

type Run = { runId: string; status: string; versionId?: string; cause?: { code: string; message: string } };

/** A valid document other than `lwir` (another description): what a colliding writer would store. */
function otherDocument(lwir: Record<string, unknown>, tag: string) {
  return contentAddress({ ...lwir, metadata: { ...(lwir.metadata as object), description: `forged ${tag}` } });
}

/** Puts a row under `id` holding `doc`, with `doc`'s own full hash: a collision as D1 would hold it. */
async function forgeRow(id: string, doc: { hash: string; canonicalJson: string }) {
  await env.DB.prepare(
    "INSERT INTO workflow_versions (id, hash, canonicalizer, canonical_json, created_at) VALUES (?, ?, 'little-workflow-canonical-json@alpha', ?, 1)",
  )
    .bind(id, doc.hash, doc.canonicalJson)
    .run();
}

describe("versions are stored, looked up and pinned by full hash (issue 15, item 3)", () => {
  it("a document already holding the run's version id is refused by name, never served as the run's version", async () => {
    const token = await tenantToken(`vcoll_${crypto.randomUUID().slice(0, 8)}`);
    // A version no test stored yet: the seed LWIR with a fresh description.
    const seed = (await liveSeed()).lwir as Record<string, unknown>;
    const lwir = { ...seed, metadata: { ...(seed.metadata as object), description: `victim ${crypto.randomUUID()}` } };
    const victim = contentAddress(lwir);
    const forged = otherDocument(lwir, crypto.randomUUID());
    await forgeRow(victim.id, forged);

    const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir, input: INPUT } });
    const run = r.json.run as Run;
    expect(run.status, r.text).toBe("failed");
    expect(run.cause?.code).toBe("version_id_collision");
    expect(run.cause?.message).toContain(victim.hash);
    // Nothing of the victim's registration is stored: no lock, no row under its hash.
    const locks = await env.DB.prepare("SELECT lock_json FROM compiler_locks WHERE version_id = ?").bind(victim.id).all();
    expect(locks.results).toEqual([]);
    const byHash = await env.DB.prepare("SELECT id FROM workflow_versions WHERE hash = ?").bind(victim.hash).first();
    expect(byHash).toBeNull();
    // No step ran on the forged document either.
    const events = await runEvents(run.runId, token);
    expect(events.filter((e) => e.type === "StepStarted" || e.type === "WorkflowVersionRegistered")).toEqual([]);
  });

  it("a pinned run looks up exactly the pinned hash: a different document put under the pinned id fails closed, with no planner and no step", async () => {
    const token = await tenantToken(`vpin_${crypto.randomUUID().slice(0, 8)}`);
    const hash = ((await call("GET", "/v1/workflows/gated.versions/definition", { token })).json as { definitionHash: string })
      .definitionHash;
    expect((await call("POST", `/v1/definitions/${hash}/approve`, { token })).status).toBe(200);
    const first = (await call("POST", "/v1/workflows/gated.versions/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(first.status).toBe("completed");
    const registered = (await runEvents(first.runId, token)).find((e) => e.type === "WorkflowVersionRegistered")?.payload as {
      versionId: string;
      versionHash: string;
    };

    // Pinned by id: resolved once to the full hash, which is what the approval and the run carry.
    const pinned = await call("POST", `/v1/definitions/${hash}/pin`, { token, body: { versionId: registered.versionId } });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.json.approval).toMatchObject({ pinnedVersionId: registered.versionId, pinnedVersionHash: registered.versionHash });
    const stored = await env.DB.prepare(
      "SELECT pinned_version_id FROM definition_approvals WHERE definition_hash = ? AND pinned_version_id IS NOT NULL",
    )
      .bind(hash)
      .all<{ pinned_version_id: string }>();
    expect(stored.results.map((r) => r.pinned_version_id)).toContain(registered.versionHash);
    const second = (await call("POST", "/v1/workflows/gated.versions/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(second.status).toBe("completed");
    const secondEvents = await runEvents(second.runId, token);
    expect(secondEvents[0]?.payload).toMatchObject({ pinnedVersionHash: registered.versionHash, pinnedVersionId: registered.versionId });
    // The API serves it by full hash and by display id alike.
    for (const key of [registered.versionHash, registered.versionId]) {
      const v = await call("GET", `/v1/versions/${encodeURIComponent(key)}`, { token });
      expect(v.status, key).toBe(200);
      expect((v.json.version as { hash: string }).hash).toBe(registered.versionHash);
    }

    // A colliding document takes the pinned id's row (its own full hash, consistent with its text).
    const original = await env.DB.prepare("SELECT hash, canonical_json FROM workflow_versions WHERE id = ?")
      .bind(registered.versionId)
      .first<{ hash: string; canonical_json: string }>();
    const forged = otherDocument(JSON.parse(original?.canonical_json ?? "{}"), "pin");
    await env.DB.prepare("UPDATE workflow_versions SET hash = ?, canonical_json = ? WHERE id = ?")
      .bind(forged.hash, forged.canonicalJson, registered.versionId)
      .run();
    const third = (await call("POST", "/v1/workflows/gated.versions/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(third.status).toBe("failed");
    expect(third.cause?.code).toBe("pinned_version_invalid");
    expect(third.cause?.message).toContain(registered.versionHash);
    const thirdEvents = await runEvents(third.runId, token);
    expect(thirdEvents.filter((e) => e.type === "harness.session.started" || e.type === "StepStarted")).toEqual([]);
    expect(thirdEvents.at(-1)?.type).toBe("RunFailed");
    // Served by full hash: not there. The forged row is never served as the pinned version.
    expect((await call("GET", `/v1/versions/${encodeURIComponent(registered.versionHash)}`, { token })).status).toBe(404);
    // Put the real row back: other tests' runs compile to the same version.
    await env.DB.prepare("UPDATE workflow_versions SET hash = ?, canonical_json = ? WHERE id = ?")
      .bind(original?.hash, original?.canonical_json, registered.versionId)
      .run();
  });

  it("a pin stored before pins held the hash (a wfver_ id) still runs, resolved by id", async () => {
    const token = await tenantToken(`vlegacy_${crypto.randomUUID().slice(0, 8)}`);
    const hash = ((await call("GET", "/v1/workflows/gated.versions/definition", { token })).json as { definitionHash: string })
      .definitionHash;
    await call("POST", `/v1/definitions/${hash}/approve`, { token });
    const first = (
      await call("POST", "/v1/workflows/gated.versions/runs?wait=30", { token, body: { input: { ...INPUT, ticketId: "T-16" } } })
    ).json.run as Run;
    expect(first.status).toBe("completed");
    const unknown = await call("POST", `/v1/definitions/${hash}/pin`, { token, body: { versionHash: `sha256:${"0".repeat(64)}` } });
    expect(unknown.status).toBe(404);
    const both = await call("POST", `/v1/definitions/${hash}/pin`, {
      token,
      body: { versionId: first.versionId, versionHash: `sha256:${"0".repeat(64)}` },
    });
    expect(both.status).toBe(400);
    // Pinned by full hash directly.
    const firstHash = (await runEvents(first.runId, token)).find((e) => e.type === "WorkflowVersionRegistered")?.payload.versionHash;
    const byHash = await call("POST", `/v1/definitions/${hash}/pin`, { token, body: { versionHash: firstHash } });
    expect(byHash.status, byHash.text).toBe(200);
    expect(byHash.json.approval).toMatchObject({ pinnedVersionId: first.versionId, pinnedVersionHash: firstHash });
    // As a row written before this change holds it.
    const tenantOf = await env.DB.prepare("SELECT tenant FROM runs WHERE run_id = ?").bind(first.runId).first<{ tenant: string }>();
    await env.DB.prepare("UPDATE definition_approvals SET pinned_version_id = ?, pinned_at = 1 WHERE tenant = ? AND definition_hash = ?")
      .bind(first.versionId, tenantOf?.tenant, hash)
      .run();
    const view = await call("GET", `/v1/definitions/${hash}`, { token });
    expect(view.json.approval).toMatchObject({ pinnedVersionId: first.versionId, pinnedVersionHash: null });
    const second = (await call("POST", "/v1/workflows/gated.versions/runs?wait=30", { token, body: { input: INPUT } })).json.run as Run;
    expect(second.status, JSON.stringify(second)).toBe("completed");
    expect(second.versionId).toBe(first.versionId);
    const events = await runEvents(second.runId, token);
    expect(events.filter((e) => e.type === "harness.session.started" && e.payload.role === "planner")).toEqual([]);
  });
});
