import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { digestJson, digestPrefix } from "../../identity/digest.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError, notFound } from "../api-error.ts";
import { runLinks } from "../run-access.ts";
import { ErrorBody, json, RunResponse } from "../schemas.ts";
import { startRun } from "../start-run.ts";
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
    const registered = c.var.services.workflows.get(workflowId);
    if (!registered) throw notFound("workflow", workflowId);
    const config = registered.definition.webhook;
    const secretName = config?.secret ?? "LITTLE_WEBHOOK_SECRET";
    const secret = (c.env as unknown as Record<string, unknown>)[secretName];
    if (typeof secret !== "string" || secret === "")
      throw new ApiError(404, "webhook_not_configured", `Workflow "${workflowId}" takes no webhooks: set the secret ${secretName}`);
    const headers = {
      "webhook-id": c.req.header("webhook-id") ?? "",
      "webhook-timestamp": c.req.header("webhook-timestamp") ?? "",
      "webhook-signature": c.req.header("webhook-signature") ?? "",
    };
    const missing = Object.entries(headers)
      .filter(([, v]) => v === "")
      .map(([k]) => k);
    if (missing.length > 0) throw new ApiError(400, "webhook_headers_missing", `Missing ${missing.join(", ")}`);
    // The library reads the timestamp with parseInt and signs the number it got, so "0170…",
    // "+170…" or "170…abc" would verify as if the sender had sent them: only the canonical form passes.
    if (!/^[1-9][0-9]{0,11}$/.test(headers["webhook-timestamp"]))
      throw new ApiError(401, "webhook_timestamp_invalid", "Webhook rejected: webhook-timestamp must be whole seconds since the epoch");
    // Verified on the raw bytes as received, before any parsing.
    const raw = await c.req.text();
    let payload: unknown;
    try {
      payload = new Webhook(secret).verify(raw, headers);
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        const timestamp = /timestamp|headers/i.test(error.message);
        throw new ApiError(
          401,
          timestamp ? "webhook_timestamp_invalid" : "webhook_signature_invalid",
          `Webhook rejected: ${error.message}`,
        );
      }
      if (error instanceof SyntaxError) throw new ApiError(400, "invalid_json", "The webhook body is signed correctly but is not JSON");
      throw error;
    }
    const tenant = config?.tenant ?? c.env.LITTLE_WEBHOOK_TENANT ?? "default";
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
