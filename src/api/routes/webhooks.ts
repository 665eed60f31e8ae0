import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { digestJson, digestPrefix } from "../../identity/digest.ts";
import type { ApiEnv } from "../api-env.ts";
import { runLinks } from "../run-access.ts";
import { ErrorBody, json, OccurrenceResponse, RunResponse } from "../schemas.ts";
import { startRun } from "../start-run.ts";
import { queueOccurrence } from "../trigger-run.ts";
import { verifyDelivery } from "../verify-webhook.ts";
import { toRun } from "./runs.ts";

export const webhookRoutes = new OpenAPIHono<ApiEnv>();

webhookRoutes.openapi(
  createRoute({
    method: "post",
    path: "/hooks/{workflowId}",
    summary: "Start a run from a Standard Webhooks delivery",
    description:
      "Verifies `webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 over `id.timestamp.body`, `v1,` base64 signatures, several allowed for key rotation, 5-minute tolerance) on the raw body. The same `webhook-id` always yields the same run: 202 the first time, 200 after.",
    request: {
      params: z.object({ workflowId: z.string() }),
      headers: z.object({
        "webhook-id": z.string().optional(),
        "webhook-timestamp": z.string().optional(),
        "webhook-signature": z.string().optional(),
      }),
      body: { content: { "application/json": { schema: z.unknown() } } },
    },
    responses: {
      200: json(RunResponse, "A delivery seen before: its run"),
      202: json(RunResponse, "The run started by this delivery"),
      400: json(ErrorBody, "Missing headers or a body that is not JSON"),
      401: json(ErrorBody, "Bad signature or timestamp"),
      404: json(ErrorBody, "Unknown workflow, or one that takes no webhooks"),
      413: json(ErrorBody, "Body too large"),
    },
  }),
  async (c) => {
    const { workflowId } = c.req.valid("param");
    const { payload, webhookId, tenant, registered } = await verifyDelivery(c, workflowId);
    const config = registered.definition.webhook;
    const headers = { "webhook-id": webhookId };
    // The run id is derived from the delivery id: a delivery sent again, even concurrently,
    // addresses the same run object, which starts the run once.
    const runId = `run_wh_${digestPrefix(digestJson({ workflowId, webhookId: headers["webhook-id"] }), 24)}`;
    const input = config?.input ? config.input(payload) : payload;
    const started = await startRun({
      env: c.env,
      services: c.var.services,
      tenant,
      workflowId,
      input,
      runId,
      trigger: { kind: "webhook", id: headers["webhook-id"] },
      conflictCode: "webhook_id_conflict",
    });
    await c.var.services.deliveries.record({ workflowId, webhookId: headers["webhook-id"], tenant, runId, at: Date.now() });
    const body = { run: { ...toRun(started.view), placement: started.placement }, links: runLinks(new URL(c.req.url).origin, runId) };
    return c.json(body as z.infer<typeof RunResponse>, started.created ? 202 : 200);
  },
);

webhookRoutes.openapi(
  createRoute({
    method: "post",
    path: "/hooks/{workflowId}/runs/{runId}",
    summary: "Trigger a section run from a Standard Webhooks delivery",
    description:
      "Verified like `/hooks/{workflowId}`; the payload (mapped by the workflow's `webhook.input`) becomes the input of a new occurrence of the run's `onTrigger` section. The same `webhook-id` always yields the same occurrence: 202 the first time, 200 after.",
    request: {
      params: z.object({ workflowId: z.string(), runId: z.string() }),
      body: { content: { "application/json": { schema: z.unknown() } } },
    },
    responses: {
      200: json(OccurrenceResponse, "A delivery seen before: its occurrence"),
      202: json(OccurrenceResponse, "The occurrence queued by this delivery"),
      400: json(ErrorBody, "Missing headers or a body that is not JSON"),
      401: json(ErrorBody, "Bad signature or timestamp"),
      404: json(ErrorBody, "Unknown workflow or run"),
      409: json(ErrorBody, "The run has ended or is not a section"),
    },
  }),
  async (c) => {
    const { workflowId, runId } = c.req.valid("param");
    const { payload, webhookId, tenant, registered } = await verifyDelivery(c, workflowId);
    const input = registered.definition.webhook?.input ? registered.definition.webhook.input(payload) : payload;
    const queued = await queueOccurrence({
      env: c.env,
      services: c.var.services,
      tenant,
      runId,
      workflowId,
      input,
      trigger: { kind: "webhook", id: webhookId },
      origin: new URL(c.req.url).origin,
    });
    return c.json(queued.body, queued.created ? 202 : 200);
  },
);
