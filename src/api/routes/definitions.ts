import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { forgetApproval } from "../../engine/runs/approval-reads.ts";
import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import { versionIdOf } from "../../identity/workflow-version.ts";
import { type Digest, digestJson } from "../../json/digest.ts";
import { compileAndLock } from "../../lwir/register-workflow-version.ts";
import type { ApprovalAuditEntry, DefinitionApproval } from "../../ports/definition-approvals.ts";
import { DefinitionProjectionMissingError } from "../../sdk/errors/definition-projection-missing-error.ts";
import type { ApiEnv, ApiServices } from "../api-env.ts";
import { ApiError, notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { actorOf, revokeApproval } from "../revoke-approval.ts";
import { commonErrors, ErrorBody, json } from "../schemas.ts";
import { capabilitiesOf } from "../workflow-capabilities.ts";

/**
 * Definition projections (what a workflow launches as, read without evaluating code), their
 * approval per tenant, and the version pinned for an approved definition ("plan once, run many").
 */
export const definitionRoutes = new OpenAPIHono<ApiEnv>();
definitionRoutes.use("/definitions/*", requireTenant());
definitionRoutes.use("/workflows/*", requireTenant());

const Approval = z
  .object({
    approvedAt: z.number(),
    pinnedVersionId: z.string().nullable().openapi({ description: "The pinned version's display id" }),
    pinnedVersionHash: z
      .string()
      .nullable()
      .openapi({ description: "The pinned version's full sha256 hash: what runs execute (null for a pin made before pins held it)" }),
    pinnedAt: z.number().nullable(),
  })
  .openapi("DefinitionApproval");

const AuditEntry = z
  .object({
    action: z.enum(["approved", "revoked"]),
    workflowId: z.string(),
    at: z.number(),
    by: z.string().nullable().openapi({ description: "The token that asked (`tok_…`), `dev` (the dev token) or `admin`" }),
  })
  .openapi("DefinitionApprovalAuditEntry");

const Definition = z
  .object({
    definitionHash: z.string(),
    workflowId: z.string(),
    snapshot: z.unknown().openapi({ description: "The WorkflowDefinitionSnapshot the hash addresses (canonical JSON)" }),
    live: z.boolean().openapi({ description: "Whether a workflow registered in this Worker hashes to it now" }),
    requiresApproval: z.boolean(),
    approval: Approval.nullable(),
    audit: z
      .array(AuditEntry)
      .openapi({ description: "The tenant's approvals and revocations of this hash, oldest first: who asked and when" }),
  })
  .openapi("Definition");

const HashParam = z.object({ hash: z.string().regex(/^sha256:[0-9a-f]{64}$/, "a definition hash: sha256:<64 hex>") });

definitionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/definitions/{hash}",
    operationId: "getDefinition",
    tags: ["definitions"],
    summary: "A definition's stored projection and its approval",
    description:
      "Visible when a workflow of this Worker hashes to it or the tenant approved it. A known hash without a stored projection answers 409 `definition_projection_missing` with re-deploy guidance.",
    request: { params: HashParam },
    responses: { 200: json(Definition, "The definition"), 409: json(ErrorBody, "The projection is missing"), ...commonErrors },
  }),
  async (c) => {
    const hash = c.req.valid("param").hash as Digest;
    return c.json(await definitionView(c.var.services, c.var.tenant, hash), 200);
  },
);

definitionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/workflows/{workflowId}/definition",
    operationId: "getWorkflowDefinition",
    tags: ["definitions"],
    summary: "What a workflow launches as now: its live definition hash and projection",
    description: "Also records the projection, so it can be approved before the first run.",
    request: { params: z.object({ workflowId: z.string() }) },
    responses: { 200: json(Definition, "The live definition"), ...commonErrors },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const registered = services.workflows.get(c.req.valid("param").workflowId);
    if (!registered) throw notFound("workflow", c.req.valid("param").workflowId);
    const caps = await capabilitiesOf(registered);
    await services.versions.putDefinition(caps.snapshot, caps.definitionHash, services.clock.now());
    return c.json(await definitionView(services, tenant, caps.definitionHash), 200);
  },
);

definitionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/definitions/{hash}/approve",
    operationId: "approveDefinition",
    tags: ["definitions"],
    summary: "Approve a definition hash for this tenant",
    description: "Idempotent. Workflows with `requireApproval` start only when their live hash is approved.",
    request: { params: HashParam },
    responses: { 200: json(Definition, "The approved definition"), 409: json(ErrorBody, "The projection is missing"), ...commonErrors },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const hash = c.req.valid("param").hash as Digest;
    // Not re-recorded on the way: the approval's own batch writes the projection it freezes.
    const snapshot = await storedProjection(services, tenant, hash, { record: false });
    // The projection is frozen with the approval: one D1 transaction writes both (and the audit row).
    await services.approvals.approve({
      tenant,
      definitionHash: hash,
      workflowId: snapshot.id,
      at: services.clock.now(),
      projection: snapshot,
      by: actorOf(c.var.principal),
    });
    forgetApproval(services.approvals, tenant, hash);
    return c.json(await definitionView(services, tenant, hash), 200);
  },
);

definitionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/definitions/{hash}/pin",
    operationId: "pinVersion",
    tags: ["definitions"],
    summary: "Pin a WorkflowVersion for an approved definition",
    description:
      "Runs of the workflow whose live definition has this hash then execute the pinned version without a planner (the lock is still checked). The version must be one the tenant's runs produced, and must bind to this definition.",
    request: {
      params: HashParam,
      body: {
        content: {
          "application/json": {
            schema: z
              .object({
                versionId: z
                  .string()
                  .regex(/^wfver_[0-9a-f]{16}$/)
                  .optional(),
                versionHash: z
                  .string()
                  .regex(/^sha256:[0-9a-f]{64}$/)
                  .optional()
                  .openapi({ description: "The version's full hash; pins exactly that document" }),
              })
              .refine((b) => (b.versionId === undefined) !== (b.versionHash === undefined), {
                message: "give versionId or versionHash",
              }),
          },
        },
        required: true,
      },
    },
    responses: {
      200: json(Definition, "The pinned definition"),
      409: json(ErrorBody, "Not approved, or not a live definition"),
      422: json(ErrorBody, "The version does not bind to this definition"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const hash = c.req.valid("param").hash as Digest;
    const body = c.req.valid("json");
    const asked = body.versionHash ?? body.versionId ?? "";
    if (!(await services.approvals.get(tenant, hash)))
      throw new ApiError("definition_not_approved", `Approve ${hash} before pinning a version for it`, { status: 409 });
    // The id is a display name: it is resolved once, here, to the full hash the pin stores.
    const displayId = body.versionHash ? versionIdOf(body.versionHash as Digest) : asked;
    if (!(await services.runs.tenantUsesVersion(tenant, displayId))) throw notFound("version", asked);
    const version = body.versionHash
      ? await services.versions.getVersionByHash(body.versionHash as Digest)
      : await services.versions.getVersionById(asked);
    if (!version) throw notFound("version", asked);
    const caps = await liveCapabilities(services, hash);
    if (!caps)
      throw new ApiError(
        "definition_not_live",
        `No workflow of this Worker hashes to ${hash} now; a version can only be checked against live code`,
      );
    // Throws LwirInvalidError (422) when the version does not bind to this definition.
    const locked = compileAndLock(version.lwir, caps);
    await services.versions.putLock(locked.lock, locked.lockHash, services.clock.now());
    await services.approvals.pin(tenant, hash, { id: version.id, hash: version.hash }, services.clock.now());
    forgetApproval(services.approvals, tenant, hash);
    return c.json(await definitionView(services, tenant, hash), 200);
  },
);

definitionRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/definitions/{hash}/pin",
    operationId: "unpinVersion",
    tags: ["definitions"],
    summary: "Unpin: runs plan again",
    description:
      "Removes the tenant's pin of this definition: later runs compile with the planner again. Runs already started keep their version.",
    request: { params: HashParam },
    responses: { 200: json(Definition, "The definition, unpinned"), ...commonErrors },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const hash = c.req.valid("param").hash as Digest;
    const unpinned = await services.approvals.pin(tenant, hash, null, services.clock.now());
    forgetApproval(services.approvals, tenant, hash);
    if (!unpinned) throw notFound("definition_approval", hash);
    return c.json(await definitionView(services, tenant, hash), 200);
  },
);

/** The registered workflow whose live definition has this hash, if any. */
async function liveCapabilities(services: ApiServices, hash: Digest): Promise<DefinitionCapabilities | null> {
  for (const id of services.workflows.ids()) {
    const registered = services.workflows.get(id);
    if (!registered) continue;
    const caps = await capabilitiesOf(registered).catch(() => null);
    if (caps?.definitionHash === hash) return caps;
  }
  return null;
}

/** The stored projection, checked against its hash; a known hash without one is a named 409. */
async function storedProjection(services: ApiServices, tenant: string, hash: Digest, options: { record: boolean } = { record: true }) {
  const [snapshot, approval, live] = await Promise.all([
    services.versions.getDefinition(hash),
    services.approvals.get(tenant, hash),
    liveCapabilities(services, hash),
  ]);
  if (!snapshot) {
    // A live definition is this Worker's own: its projection is recorded again, never asked for.
    if (live) {
      if (options.record) await services.versions.putDefinition(live.snapshot, hash, services.clock.now());
      return live.snapshot;
    }
    // Known (approved) but no longer deployed here: only a re-deploy can say what it launches as.
    if (approval) throw new DefinitionProjectionMissingError(hash);
    throw notFound("definition", hash);
  }
  if (!approval && !live) throw notFound("definition", hash);
  if (digestJson(snapshot) !== hash)
    throw new ApiError(
      "definition_projection_mismatch",
      `The stored projection of ${hash} no longer hashes to it; re-deploy and approve again`,
    );
  return snapshot;
}

async function definitionView(services: ApiServices, tenant: string, hash: Digest): Promise<z.infer<typeof Definition>> {
  const snapshot = await storedProjection(services, tenant, hash);
  const [approval, live, audit] = await Promise.all([
    services.approvals.get(tenant, hash),
    liveCapabilities(services, hash),
    services.approvals.audit(tenant, hash),
  ]);
  return {
    definitionHash: hash,
    workflowId: snapshot.id,
    snapshot,
    live: live !== null,
    requiresApproval: snapshot.approval === "required",
    approval: approval ? approvalView(approval) : null,
    audit: audit.map((e: ApprovalAuditEntry) => ({ action: e.action, workflowId: e.workflowId, at: e.at, by: e.by })),
  };
}

const Revocation = z
  .object({
    definitionHash: z.string(),
    workflowId: z.string(),
    revoked: Approval.openapi({ description: "The approval as it was (its pin is gone with it)" }),
    endedRuns: z
      .array(z.string())
      .openapi({ description: "Unfinished runs started under the approval, now failed with `definition_approval_revoked`" }),
  })
  .openapi("DefinitionRevocation");

definitionRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/definitions/{hash}/approve",
    operationId: "revokeDefinitionApproval",
    tags: ["definitions"],
    summary: "Revoke a definition's approval for this tenant",
    description:
      "Removes the approval and its pin, audited (who, when). Unfinished runs started under it fail closed with `definition_approval_revoked` — waiting for a trigger, an approval or a retry, or mid-slice — and `requireApproval` workflows no longer start (403 `definition_not_approved`). 404 `definition_approval_not_found` when the hash is not approved.",
    request: { params: HashParam },
    responses: { 200: json(Revocation, "The revoked approval and the runs it ended"), ...commonErrors },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const hash = c.req.valid("param").hash as Digest;
    const result = await revokeApproval(services, tenant, hash, actorOf(c.var.principal));
    if (!result) throw notFound("definition_approval", hash);
    return c.json(
      { definitionHash: hash, workflowId: result.revoked.workflowId, revoked: approvalView(result.revoked), endedRuns: result.endedRuns },
      200,
    );
  },
);

function approvalView(a: DefinitionApproval): z.infer<typeof Approval> {
  return { approvedAt: a.approvedAt, pinnedVersionId: a.pinnedVersionId, pinnedVersionHash: a.pinnedVersionHash, pinnedAt: a.pinnedAt };
}
