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
    // Released between the two statements: the id is free again, so this delivery may take it.
    if (!row) return this.claim(delivery);
    return { target: row.target, runId: row.runId, created: false };
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
