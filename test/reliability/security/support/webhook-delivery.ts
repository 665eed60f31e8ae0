import { exports } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";

/** The Worker's webhook secret in the test bindings (vitest.config.ts); also the spec's reference secret. */
export const WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
export const HOOK_PATH = "/v1/hooks/support.summarize-ticket";

export type Headers3 = { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };
export type Answer = { status: number; code: string | undefined; message: string; runId: string | undefined; text: string };

/** The three Standard Webhooks headers for `body`, signed at `atSeconds` with `secret`. */
export function signDelivery(id: string, body: string, atSeconds: number, secret = WEBHOOK_SECRET): Headers3 {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(atSeconds),
    "webhook-signature": new Webhook(secret).sign(id, new Date(atSeconds * 1000), body),
  };
}

/** POSTs raw bytes (or text) with the given headers to the webhook route, through the Worker's own fetch. */
export async function deliver(body: string | Uint8Array, headers: Record<string, string>, path = HOOK_PATH): Promise<Answer> {
  const res = await exports.default.fetch(`http://little.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await res.text();
  let json: { error?: { code?: string; message?: string }; run?: { runId?: string } } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the status and text say enough.
  }
  return { status: res.status, code: json.error?.code, message: json.error?.message ?? "", runId: json.run?.runId, text };
}

/**
 * Whether the answer shows the delivery passed signature verification: a run (2xx), a conflict or
 * input check after it (409, 422), or the route's own "signed correctly but not JSON". Nothing
 * parses the body before verification (issue 15), so malformed JSON with a bad signature is a 401.
 */
export function passedVerification(answer: Answer): boolean {
  if (answer.status < 300 || answer.status === 409 || answer.status === 422) return true;
  return answer.status === 400 && answer.code === "invalid_json" && /signed correctly/.test(answer.message);
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
