import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { digestJson, digestPrefix } from "../json/digest.ts";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";
import { tool } from "../sdk/tool.ts";

/**
 * The refund a person must approve. This example's tool computes a deterministic refund id from
 * its arguments instead of calling a payment provider: swap `execute` for your provider's call
 * (the step's idempotency key is `context.idempotencyKey`). A real provider needs a key: bind it on
 * the workflow (`defineWorkflow({ secrets: ["STRIPE_KEY"] })`, set with `PUT /v1/secrets/STRIPE_KEY`)
 * and declare it on this tool (`secrets: ["STRIPE_KEY"]`), which is then the only tool given it, in
 * `context.secrets.STRIPE_KEY`. Not bound here, so the example starts without any stored secret.
 *
 * @example
 * tool({ …, secrets: ["STRIPE_KEY"],
 *   execute: (input, { context }) => stripe(context.secrets.STRIPE_KEY).refunds.create(input, { idempotencyKey: context.idempotencyKey }) })
 */
export const issueRefund = tool({
  description: "Refund an amount (in cents) on an order. A person approves every call.",
  inputSchema: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
  outputSchema: z.object({ refundId: z.string(), orderId: z.string(), amountCents: z.number() }),
  needsApproval: true,
  execute: async ({ orderId, amountCents }: { orderId: string; amountCents: number }) => ({
    refundId: `rf_${digestPrefix(digestJson({ orderId, amountCents }), 12)}`,
    orderId,
    amountCents,
  }),
});

/** Refund an order after a person approves the exact call (`docs/lineage.md`, "Approvals"). */
export const billingRefund = defineWorkflow({
  id: "billing.refund",
  description: "Refund an order: issue the refund with the billing.issue-refund tool, after approval.",
  input: z.object({ orderId: z.string(), amountCents: z.number().int().positive(), reason: z.string() }),
  output: z.object({ refundId: z.string(), orderId: z.string(), amountCents: z.number() }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: { model: openai("gpt-5"), system: "You design billing workflows. Refunds go through the refund tool." },
  tools: { "billing.issue-refund": issueRefund },
  // A plan that completes without the refund call would answer a made-up refund id: refused at plan time.
  requiredTools: ["billing.issue-refund"],
});
