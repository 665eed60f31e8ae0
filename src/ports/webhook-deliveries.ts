/**
 * One Standard Webhooks delivery, as claimed: `secretKey` names the signing secret (a digest,
 * never the secret), `target` the URL it reached (`/hooks/<workflow>` or
 * `/hooks/<workflow>/runs/<run>`), `runId` the run it started or was addressed to.
 */
export type WebhookDelivery = {
  readonly secretKey: string;
  readonly webhookId: string;
  readonly target: string;
  readonly workflowId: string;
  readonly tenant: string;
  readonly runId: string;
  readonly at: number;
};

/** The delivery that holds a `webhook-id` under a secret, and whether this claim made it. */
export type WebhookClaim = { readonly target: string; readonly runId: string; readonly created: boolean };

/**
 * Durable record of Standard Webhooks deliveries: a `webhook-id` is accepted once per signing
 * secret, for the first target it reached, whatever URL a replay is sent to.
 */
export interface WebhookDeliveries {
  /** Claims the delivery's id under its secret if it is new; answers the claim that holds it (this one or the first). */
  claim(delivery: WebhookDelivery): Promise<WebhookClaim>;
  /** Drops a claim this request made when what it was for was refused, so nothing of a refusal stays stored. */
  release(delivery: WebhookDelivery): Promise<void>;
}
