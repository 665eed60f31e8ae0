import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { WebhookDeliveries } from "../../ports/webhook-deliveries.ts";
import { webhookDeliveries } from "./schema.ts";

/** The D1 adapter of {@link WebhookDeliveries}: an insert-if-absent, then a read of the winner. */
export class D1WebhookDeliveries implements WebhookDeliveries {
  private readonly db;
  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async record(delivery: { workflowId: string; webhookId: string; tenant: string; runId: string; at: number }): Promise<string> {
    await this.db
      .insert(webhookDeliveries)
      .values({
        workflowId: delivery.workflowId,
        webhookId: delivery.webhookId,
        tenant: delivery.tenant,
        runId: delivery.runId,
        receivedAt: delivery.at,
      })
      .onConflictDoNothing();
    const row = await this.db
      .select({ runId: webhookDeliveries.runId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.workflowId, delivery.workflowId), eq(webhookDeliveries.webhookId, delivery.webhookId)))
      .get();
    return row?.runId ?? delivery.runId;
  }
}
