import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { startRun } from "../../engine/runs/start-service.ts";
import { digestJson, digestPrefix } from "../../json/digest.ts";
import type { WebhookConfig } from "../../sdk/define-workflow.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError } from "../api-error.ts";
import { runLinks } from "../run-links.ts";
import { ErrorBody, json, OccurrenceResponse, RunResponse } from "../schemas.ts";
import { queueOccurrence } from "../trigger-run.ts";
import { verifyDelivery } from "../verify-webhook.ts";
import { withDeliveryClaim } from "../webhook-claim.ts";
import { toRun } from "./runs.ts";

export const webhookRoutes = new OpenAPIHono<ApiEnv>();

/**
 * The signed body, documented but not validated by the route: a zod schema here would make the
 * request validator parse the JSON before the signature is checked. It is read as raw bytes and
 * parsed only after verification (verify-webhook.ts).
 */
const SIGNED_BODY = {
  content: { "application/json": { schema: { description: "Any JSON payload, signed by the sender" } } },
  description: "The delivery's payload, verified as the raw bytes received",
};

/** The run input a verified payload maps to: `webhook.input` when the workflow declares one. */
function mapPayload(workflowId: string, config: WebhookConfig | null, payload: unknown): unknown {
  if (!config?.input) return payload;
  try {
    return config.input(payload);
  } catch (error) {
    // The sender's payload did not fit the workflow's mapping: the request's fault, not the Worker's.
    throw new ApiError(
      "webhook_payload_unmapped",
      `Workflow "${workflowId}" could not map this payload to its input: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

webhookRoutes.openapi(
  createRoute({
    method: "post",
    path: "/hooks/{workflowId}",
    operationId: "receiveWebhook",
    tags: ["webhooks"],
    summary: "Start a run from a Standard Webhooks delivery",
    description:
      'Only for a workflow whose definition declares `webhook: { secret: "<NAME>" }`; deliveries are signed with the Worker secret NAME (the shared `LITTLE_WEBHOOK_SECRET` stands in only for local development). Verifies `webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 over `id.timestamp.body`, `v1,` base64 signatures, several allowed for key rotation, 5-minute tolerance) on the raw bytes, read up to the body limit, before the body is parsed. The same `webhook-id` always yields the same run: 202 the first time, 200 after; sent to any other URL with the same secret it is 409 `webhook_replayed`.',
    request: {
      params: z.object({ workflowId: z.string() }),
      headers: z.object({
        "webhook-id": z.string().optional(),
        "webhook-timestamp": z.string().optional(),
        "webhook-signature": z.string().optional(),
      }),
      body: SIGNED_BODY,
    },
    responses: {
      200: json(RunResponse, "A delivery seen before: its run"),
      202: json(RunResponse, "The run started by this delivery"),
      400: json(ErrorBody, "Missing headers, or a body that is not UTF-8 or (signed correctly but) not JSON"),
      401: json(ErrorBody, "Bad signature or timestamp"),
      404: json(ErrorBody, "Unknown workflow, or one that takes no webhooks"),
      409: json(
        ErrorBody,
        "The webhook-id was accepted at another URL (`webhook_replayed`), or with another body; or (`model_unavailable`, LITTLE_MODELS=live) a model slot lacks its key: nothing is stored and the delivery can be sent again",
      ),
      413: json(ErrorBody, "Body too large"),
      422: json(ErrorBody, "The payload is not the workflow's input"),
      503: json(ErrorBody, "A deployed Worker holding a well-known example secret (`insecure_configuration`)"),
    },
  }),
  async (c) => {
    const { workflowId } = c.req.valid("param");
    const { payload, webhookId, tenant, registered, secretKey } = await verifyDelivery(c, workflowId);
    // The run id is derived from the delivery id: a delivery sent again, even concurrently,
    // addresses the same run object, which starts the run once.
    const runId = `run_wh_${digestPrefix(digestJson({ workflowId, webhookId }), 24)}`;
    const input = mapPayload(workflowId, registered.definition.webhook, payload);
    const delivery = { secretKey, webhookId, target: `/hooks/${workflowId}`, workflowId, tenant, runId, at: Date.now() };
    const started = await withDeliveryClaim(c.var.services.deliveries, delivery, () =>
      startRun(c.var.services, {
        tenant,
        workflowId,
        input,
        runId,
        trigger: { kind: "webhook", id: webhookId },
        conflictCode: "webhook_id_conflict",
        traceparent: c.req.header("traceparent"),
      }),
    );
    const body = { run: { ...toRun(started.view), placement: started.placement }, links: runLinks(new URL(c.req.url).origin, runId) };
    return c.json(body as z.infer<typeof RunResponse>, started.created ? 202 : 200);
  },
);

webhookRoutes.openapi(
  createRoute({
    method: "post",
    path: "/hooks/{workflowId}/runs/{runId}",
    operationId: "receiveRunWebhook",
    tags: ["webhooks"],
    summary: "Trigger a section run from a Standard Webhooks delivery",
    description:
      "Verified like `/hooks/{workflowId}`; the payload (mapped by the workflow's `webhook.input`) becomes the input of a new occurrence of the run's `onTrigger` section. The same `webhook-id` always yields the same occurrence: 202 the first time, 200 after; sent to any other URL with the same secret it is 409 `webhook_replayed`.",
    request: {
      params: z.object({ workflowId: z.string(), runId: z.string() }),
      body: SIGNED_BODY,
    },
    responses: {
      200: json(OccurrenceResponse, "A delivery seen before: its occurrence"),
      202: json(OccurrenceResponse, "The occurrence queued by this delivery"),
      400: json(ErrorBody, "Missing headers, or a body that is not UTF-8 or (signed correctly but) not JSON"),
      401: json(ErrorBody, "Bad signature or timestamp"),
      404: json(ErrorBody, "Unknown workflow or run, or a workflow that takes no webhooks"),
      409: json(
        ErrorBody,
        "The run has ended, is not a section or is stale after a redeploy (`section_stale`), or the webhook-id was accepted at another URL (`webhook_replayed`)",
      ),
      413: json(ErrorBody, "Body too large"),
      503: json(ErrorBody, "A deployed Worker holding a well-known example secret (`insecure_configuration`)"),
    },
  }),
  async (c) => {
    const { workflowId, runId } = c.req.valid("param");
    const { payload, webhookId, tenant, registered, secretKey } = await verifyDelivery(c, workflowId);
    const input = mapPayload(workflowId, registered.definition.webhook, payload);
    const delivery = { secretKey, webhookId, target: `/hooks/${workflowId}/runs/${runId}`, workflowId, tenant, runId, at: Date.now() };
    const queued = await withDeliveryClaim(c.var.services.deliveries, delivery, () =>
      queueOccurrence({
        env: c.env,
        services: c.var.services,
        tenant,
        runId,
        workflowId,
        input,
        trigger: { kind: "webhook", id: webhookId },
        origin: new URL(c.req.url).origin,
      }),
    );
    return c.json(queued.body, queued.created ? 202 : 200);
  },
);
