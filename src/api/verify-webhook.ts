import type { Context } from "hono";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { RegisteredWorkflow } from "../engine/run-environment.ts";
import type { ApiEnv } from "./api-env.ts";
import { ApiError, notFound } from "./api-error.ts";
import { readLimitedBody } from "./body-limit.ts";
import { assertBodyNesting } from "./nesting-depth.ts";
import { webhookSecretFor } from "./webhook-secret.ts";

/**
 * A verified Standard Webhooks delivery: its JSON payload, its id, the tenant that owns it, and
 * `secretKey`, the digest naming the secret it was signed with (deliveries are claimed per secret).
 */
export type VerifiedDelivery = { payload: unknown; webhookId: string; tenant: string; registered: RegisteredWorkflow; secretKey: string };

/** Decodes UTF-8 strictly: a string that re-encodes to exactly the bytes received, or an error. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Verifies a delivery for a workflow: `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (HMAC-SHA256, 5-minute tolerance) with the secret the workflow declares. The body is read as a
 * stream that stops at the body limit (413), and verified as the bytes received: nothing is parsed
 * before the signature passes. Every refusal is a named 4xx and stores nothing.
 */
export async function verifyDelivery(c: Context<ApiEnv>, workflowId: string): Promise<VerifiedDelivery> {
  const registered = c.var.services.workflows.get(workflowId);
  if (!registered) throw notFound("workflow", workflowId);
  const config = registered.definition.webhook;
  const secret = webhookSecretFor(c.env, workflowId, config);
  const headers = {
    "webhook-id": c.req.header("webhook-id") ?? "",
    "webhook-timestamp": c.req.header("webhook-timestamp") ?? "",
    "webhook-signature": c.req.header("webhook-signature") ?? "",
  };
  const missing = Object.entries(headers)
    .filter(([, v]) => v === "")
    .map(([k]) => k);
  if (missing.length > 0) throw new ApiError("webhook_headers_missing", `Missing ${missing.join(", ")}`);
  // The library reads the timestamp with parseInt and signs the number it got, so "0170…",
  // "+170…" or "170…abc" would verify as if the sender had sent them: only the canonical form passes.
  if (!/^[1-9][0-9]{0,11}$/.test(headers["webhook-timestamp"]))
    throw new ApiError("webhook_timestamp_invalid", "Webhook rejected: webhook-timestamp must be whole seconds since the epoch");
  const bytes = await readLimitedBody(c.req.raw);
  // The library signs a string as its UTF-8 bytes: a strict decode makes that exactly the bytes
  // received (a lenient one would replace bytes and verify something the sender never sent).
  let raw: string;
  try {
    raw = STRICT_UTF8.decode(bytes);
  } catch {
    throw new ApiError("webhook_body_invalid_encoding", "Webhook rejected: the body is not UTF-8");
  }
  let payload: unknown;
  try {
    // Verifies the signature over `id.timestamp.body`, then (only then) parses the body as JSON.
    payload = new Webhook(secret.value).verify(raw, headers);
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      const timestamp = /timestamp|headers/i.test(error.message);
      throw new ApiError(timestamp ? "webhook_timestamp_invalid" : "webhook_signature_invalid", `Webhook rejected: ${error.message}`);
    }
    if (error instanceof SyntaxError) throw new ApiError("invalid_json", "The webhook body is signed correctly but is not JSON");
    throw error;
  }
  assertBodyNesting(raw);
  const tenant = config?.tenant ?? c.env.LITTLE_WEBHOOK_TENANT ?? "default";
  return { payload, webhookId: headers["webhook-id"], tenant, registered, secretKey: secret.key };
}
