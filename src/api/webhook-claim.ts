import type { WebhookDeliveries, WebhookDelivery } from "../ports/webhook-deliveries.ts";
import { ApiError } from "./api-error.ts";

/**
 * Runs `accept` for a verified delivery once its `webhook-id` is claimed under its secret for this
 * target. The same id at another URL (a replay, even to another workflow that shares the secret)
 * is 409 `webhook_replayed` before anything starts; the same id at the same URL goes on (the
 * start or occurrence it names is idempotent). When `accept` is refused, a claim this request
 * made is released, so a refusal leaves nothing stored.
 */
export async function withDeliveryClaim<T>(deliveries: WebhookDeliveries, delivery: WebhookDelivery, accept: () => Promise<T>): Promise<T> {
  const claim = await deliveries.claim(delivery);
  if (claim.target !== delivery.target)
    throw new ApiError(
      "webhook_replayed",
      `webhook-id "${delivery.webhookId}" was already accepted at another URL with this signing secret; a delivery is accepted once, where it was first sent`,
    );
  try {
    return await accept();
  } catch (error) {
    if (claim.created) await deliveries.release(delivery);
    throw error;
  }
}
