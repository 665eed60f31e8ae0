import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";
import { billingRefund } from "./billing-refund.ts";

/**
 * Escalates a support ticket that asks for money back: works out the refund from the transcript
 * and runs `billing.refund` for it as a child run (a `workflow.run` step, docs/lwir.md), whose
 * output — the refund a person approved — is part of this workflow's output. The child is a run of
 * its own: its planner, its approval, its page in the inspector, linked to this run and back.
 */
export const supportEscalate = defineWorkflow({
  id: "support.escalate",
  description: "Escalate a support ticket that asks for a refund: run billing.refund for it and summarize what was done.",
  input: z.object({ ticketId: z.string(), transcript: z.string() }),
  output: z.object({
    summary: z.string(),
    refund: z.object({ refundId: z.string(), orderId: z.string(), amountCents: z.number() }),
  }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: {
    model: openai("gpt-5"),
    system: "You design support escalations. A refund is always issued by running the billing.refund workflow, never invented.",
  },
  workflows: [billingRefund],
});
