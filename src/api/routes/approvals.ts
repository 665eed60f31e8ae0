import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { findTenantRun } from "../../engine/runs/find-tenant-run.ts";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { ErrorBody, json, runErrors } from "../schemas.ts";
import { toRun } from "./runs.ts";

/** Approvals of tool calls declared `needsApproval`: list them, approve or deny one. */
export const approvalRoutes = new OpenAPIHono<ApiEnv>();
approvalRoutes.use("/runs/*", requireTenant());

const Approval = z
  .object({
    approvalId: z.string(),
    stepPath: z.string(),
    tool: z.string(),
    args: z.unknown(),
    argsHash: z.string().openapi({ description: "sha256 of the canonical JSON of args; a decision must quote it" }),
    expiresAt: z.number(),
    status: z.enum(["waiting_for_approval", "approved", "denied", "expired"]),
    reason: z.string().optional(),
  })
  .openapi("Approval");

approvalRoutes.openapi(
  createRoute({
    method: "get",
    path: "/runs/{runId}/approvals",
    operationId: "listApprovals",
    tags: ["approvals"],
    summary: "A run's approvals, pending ones as waiting_for_approval",
    description:
      "Tool calls of the run that asked for approval (`needsApproval`), with their arguments and the hash a decision must quote; pending ones are `waiting_for_approval`.",
    request: { params: z.object({ runId: z.string() }) },
    responses: { 200: json(z.object({ approvals: z.array(Approval) }), "The approvals"), ...runErrors },
  }),
  async (c) => {
    const { client } = await findTenantRun(c.var.services, c.var.tenant, c.req.valid("param").runId);
    return c.json({ approvals: (await client.status()).approvals ?? [] }, 200);
  },
);

approvalRoutes.openapi(
  createRoute({
    method: "post",
    path: "/runs/{runId}/approvals/{approvalId}",
    operationId: "decideApproval",
    tags: ["approvals"],
    summary: "Approve or deny a tool call",
    description:
      "`argsHash` must be the hash of the arguments shown by GET …/approvals: a decision for other arguments is refused (409 `approval_args_mismatch`) and changes nothing. Deciding again the same way answers 200 with `created: false`.",
    request: {
      params: z.object({ runId: z.string(), approvalId: z.string() }),
      body: {
        content: {
          "application/json": {
            schema: z.object({
              decision: z.enum(["approve", "deny"]),
              argsHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
              reason: z.string().max(1_000).optional(),
            }),
          },
        },
        required: true,
      },
    },
    responses: {
      200: json(z.object({ approval: Approval, created: z.boolean(), run: z.unknown() }), "The decision"),
      409: json(ErrorBody, "Other arguments, already decided, expired, or the run ended"),
      ...runErrors,
    },
  }),
  async (c) => {
    const { runId, approvalId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { client } = await findTenantRun(c.var.services, c.var.tenant, runId);
    const result = await client.decideApproval({
      approvalId,
      decision: body.decision === "approve" ? "approved" : "denied",
      argsHash: body.argsHash,
      ...(body.reason ? { reason: body.reason } : {}),
    });
    return c.json({ approval: result.approval, created: result.created, run: toRun(await client.status()) }, 200);
  },
);
