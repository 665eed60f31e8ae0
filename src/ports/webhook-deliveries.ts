/** Durable record of Standard Webhooks deliveries: the first one for a `webhook-id` is kept. */
export interface WebhookDeliveries {
  /** Records a delivery if its id is new; returns the run id the delivery id belongs to. */
  record(delivery: { workflowId: string; webhookId: string; tenant: string; runId: string; at: number }): Promise<string>;
}
