import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { WebhookClaim, WebhookDeliveries, WebhookDelivery } from "../../ports/webhook-deliveries.ts";
import { webhookDeliveries } from "./schema.ts";

/**
 * The D1 adapter of {@link WebhookDeliveries}: an insert-if-absent keyed by (secret, webhook-id),
 * then a read of the winner. Concurrent claims race on the primary key, so exactly one is created.
 */
export class D1WebhookDeliveries implements WebhookDeliveries {
  private readonly db;
  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async claim(delivery: WebhookDelivery): Promise<WebhookClaim> {
    // A claim released between the insert and the read frees the id again: try once more.
    for (let attempt = 0; ; attempt++) {
      const claim = await this.tryClaim(delivery);
      if (claim || attempt >= 2) return claim ?? { target: delivery.target, runId: delivery.runId, created: false };
    }
  }

  /** Insert-if-absent, then the winner; null when the holding row vanished in between. */
  private async tryClaim(delivery: WebhookDelivery): Promise<WebhookClaim | null> {
    const inserted = await this.db
      .insert(webhookDeliveries)
      .values({
        secretKey: delivery.secretKey,
        webhookId: delivery.webhookId,
        target: delivery.target,
        workflowId: delivery.workflowId,
        tenant: delivery.tenant,
        runId: delivery.runId,
        receivedAt: delivery.at,
      })
      .onConflictDoNothing()
      .returning({ runId: webhookDeliveries.runId });
    if (inserted.length > 0) return { target: delivery.target, runId: delivery.runId, created: true };
    const row = await this.db
      .select({ target: webhookDeliveries.target, runId: webhookDeliveries.runId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.secretKey, delivery.secretKey), eq(webhookDeliveries.webhookId, delivery.webhookId)))
      .get();
    return row ? { target: row.target, runId: row.runId, created: false } : null;
  }

  async release(delivery: WebhookDelivery): Promise<void> {
    await this.db
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.secretKey, delivery.secretKey),
          eq(webhookDeliveries.webhookId, delivery.webhookId),
          eq(webhookDeliveries.target, delivery.target),
          eq(webhookDeliveries.runId, delivery.runId),
        ),
      );
  }
}
