import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { deleteTenantRun } from "../deletion-operations.ts";
import { actorOf } from "../revoke-approval.ts";
import { ErrorBody, json, runErrors } from "../schemas.ts";

export const runDeletionRoutes = new OpenAPIHono<ApiEnv>();
runDeletionRoutes.use("/runs/*", requireTenant());

export const DeletedRunBody = z
  .object({
    runId: z.string(),
    workflowId: z.string(),
    deletedAt: z.string().openapi({ description: "ISO-8601" }),
    by: z.string().openapi({ description: "Who deleted it: a token id (`tok_…`), `dev`, `admin`, `retention` or `bulk:<job id>`" }),
  })
  .openapi("DeletedRun");

const deleteRoute = createRoute({
  method: "delete",
  path: "/runs/{runId}",
  operationId: "deleteRun",
  tags: ["runs"],
  summary: "Delete a run and all its data (scope runs:delete)",
  description:
    "Purges the run's event log and storage, its blobs, its index and every row keyed by it, and its child runs, leaving a tombstone: afterwards every route for the run answers 410 `run_deleted`, and its id (or the Idempotency-Key that made it) never starts a run again. Only ended runs; `?cancel=true` cancels a live one first. A deletion interrupted by a crash is finished by the same request again (or by the cron).",
  request: {
    params: z.object({ runId: z.string() }),
    query: z.object({
      cancel: z
        .enum(["true", "false"])
        .optional()
        .openapi({ description: "Cancel the run first when it has not ended (else 409 `run_active`)" }),
    }),
  },
  responses: {
    200: json(z.object({ deleted: DeletedRunBody }), "The run is deleted"),
    409: json(ErrorBody, "The run has not ended (`run_active`): cancel it, or pass `?cancel=true`"),
    ...runErrors,
  },
});

runDeletionRoutes.openapi(deleteRoute, async (c) => {
  const { runId } = c.req.valid("param");
  const deleted = await deleteTenantRun(c.get("services"), c.get("tenant"), runId, {
    cancel: c.req.valid("query").cancel === "true",
    by: actorOf(c.var.principal),
  });
  return c.json({ deleted }, 200);
});
