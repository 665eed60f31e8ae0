import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { BulkRequestBody, bulkCallerOf, readBulkJob, startBulkJob } from "../bulk-operations.ts";
import { commonErrors, ErrorBody, json } from "../schemas.ts";

export const bulkActionRoutes = new OpenAPIHono<ApiEnv>();
bulkActionRoutes.use("/runs/bulk", requireTenant());
bulkActionRoutes.use("/runs/bulk/*", requireTenant());

const Failure = z.object({ runId: z.string(), code: z.string(), message: z.string() });

export const BulkJobBody = z
  .object({
    jobId: z.string(),
    action: z.enum(["cancel", "restart", "delete"]),
    filter: z.record(z.string(), z.unknown()),
    dryRun: z.boolean(),
    state: z.enum(["running", "done"]),
    matched: z.number().int().openapi({ description: "Runs the filter matched so far (all, once done)" }),
    done: z.number().int().openapi({ description: "Runs acted on" }),
    failed: z.number().int(),
    failures: z.array(Failure).openapi({ description: "Each failed run and its cause (the first 100)" }),
    sample: z.array(z.string()).optional().openapi({ description: "A dry run's first matched run ids (up to 100)" }),
    createdAt: z.number().int(),
    endedAt: z.number().int().optional(),
  })
  .openapi("BulkJob");

const startRoute = createRoute({
  method: "post",
  path: "/runs/bulk",
  operationId: "startBulkAction",
  tags: ["runs"],
  summary: "Cancel or delete every run that matches a filter (a bulk job)",
  description:
    "Starts a job that walks the run index page by page and acts on each matching run once: `cancel` (scope runs:write) or `delete` (also runs:delete). `dryRun` counts what matches and does nothing. Follow the job with `GET /v1/runs/bulk/{jobId}`. Resumable after a crash; a run is never acted on twice.",
  request: { body: { content: { "application/json": { schema: BulkRequestBody } }, required: true } },
  responses: {
    202: json(z.object({ job: BulkJobBody }), "The job is started"),
    422: json(
      ErrorBody,
      "Unknown action (`bulk_action_unknown`), an action this Worker does not run (`bulk_action_unsupported`), a bad filter value (`bulk_filter_invalid`: a date, a status, a tag that is not `key:value`); no job is created",
    ),
    ...commonErrors,
  },
});

bulkActionRoutes.openapi(startRoute, async (c) => {
  const job = await startBulkJob(c.get("services"), c.get("tenant"), bulkCallerOf(c.var.principal), c.req.valid("json"));
  return c.json({ job: job as z.infer<typeof BulkJobBody> }, 202, {
    location: `${new URL(c.req.url).origin}/v1/runs/bulk/${job.jobId}`,
  });
});

const getRoute = createRoute({
  method: "get",
  path: "/runs/bulk/{jobId}",
  operationId: "getBulkAction",
  tags: ["runs"],
  summary: "A bulk job's progress: matched, done, failed and each failure's cause",
  description:
    "The job as its object holds it now: `running` while it walks the index, `done` once every match was acted on (or, for a dry run, counted). Another tenant's job id is 404 `bulk_job_not_found`.",
  request: { params: z.object({ jobId: z.string() }) },
  responses: { 200: json(z.object({ job: BulkJobBody }), "The job"), ...commonErrors },
});

bulkActionRoutes.openapi(getRoute, async (c) => {
  const job = await readBulkJob(c.get("services"), c.get("tenant"), c.req.valid("param").jobId);
  return c.json({ job: job as z.infer<typeof BulkJobBody> }, 200);
});
