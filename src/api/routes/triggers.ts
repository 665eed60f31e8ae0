import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { ErrorBody, json, OccurrenceResponse, runErrors } from "../schemas.ts";
import { queueOccurrence } from "../trigger-run.ts";

/** Triggers of section runs: each queues one occurrence of the run's locked body. */
export const triggerRoutes = new OpenAPIHono<ApiEnv>();
triggerRoutes.use("/runs/*", requireTenant());

triggerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/runs/{runId}/triggers",
    operationId: "triggerRun",
    tags: ["runs"],
    summary: "Trigger a section run: queue an occurrence with this input",
    description:
      "The run must be of a workflow with an `onTrigger` section and not have ended. `Idempotency-Key` makes retries return the same occurrence; `?wait=<seconds>` holds the answer until the queue is drained (the run waits again) or the run ends.",
    request: {
      params: z.object({ runId: z.string() }),
      query: z.object({ wait: z.coerce.number().min(0).max(60).optional() }),
      headers: z.object({ "idempotency-key": z.string().min(1).max(255).optional() }),
      body: { content: { "application/json": { schema: z.object({ input: z.unknown() }) } }, required: true },
    },
    responses: {
      200: json(OccurrenceResponse, "A trigger seen before: its occurrence"),
      202: json(OccurrenceResponse, "The occurrence is queued (or, with wait, has run)"),
      409: json(ErrorBody, "The run has ended, is not a section, or is stale after a redeploy (`section_stale`)"),
      422: json(ErrorBody, "The input does not match the workflow's input schema"),
      ...runErrors,
    },
  }),
  async (c) => {
    const { runId } = c.req.valid("param");
    const key = c.req.valid("header")["idempotency-key"];
    const { wait } = c.req.valid("query");
    const queued = await queueOccurrence({
      env: c.env,
      services: c.var.services,
      tenant: c.var.tenant,
      runId,
      input: c.req.valid("json").input,
      trigger: { kind: "http", ...(key ? { id: key } : {}) },
      origin: new URL(c.req.url).origin,
      ...(wait ? { waitMs: wait * 1_000 } : {}),
    });
    return c.json(queued.body, queued.created ? 202 : 200);
  },
);
