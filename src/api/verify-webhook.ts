import type { Context } from "hono";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { RegisteredWorkflow } from "../engine/run-environment.ts";
import type { ApiEnv } from "./api-env.ts";
import { ApiError, notFound } from "./api-error.ts";

/** A verified Standard Webhooks delivery: its JSON payload, its id, and the tenant that owns it. */
export type VerifiedDelivery = { payload: unknown; webhookId: string; tenant: string; registered: RegisteredWorkflow };

/**
 * Verifies a delivery for a workflow: `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (HMAC-SHA256, 5-minute tolerance) on the raw body, with the secret the workflow names. Every
 * refusal is a named 4xx; nothing is parsed before the signature is checked.
 */
export async function verifyDelivery(c: Context<ApiEnv>, workflowId: string): Promise<VerifiedDelivery> {
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
      throw new ApiError(401, timestamp ? "webhook_timestamp_invalid" : "webhook_signature_invalid", `Webhook rejected: ${error.message}`);
    }
    if (error instanceof SyntaxError) throw new ApiError(400, "invalid_json", "The webhook body is signed correctly but is not JSON");
    throw error;
  }
  const tenant = config?.tenant ?? c.env.LITTLE_WEBHOOK_TENANT ?? "default";
  return { payload, webhookId: headers["webhook-id"], tenant, registered };
}
