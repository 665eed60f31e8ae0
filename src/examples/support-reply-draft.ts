import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";

/**
 * Drafts a reply to a customer's message, with flow control (docs/flow-control.md): at most two
 * drafts per customer at once, so one customer's burst queues behind itself and never crowds out
 * another's; and its model slot shares 120 requests a minute across every run of the tenant.
 */
export const replyDraft = defineWorkflow({
  id: "support.reply-draft",
  description: "Draft a short, friendly reply to a customer's support message.",
  input: z.object({ customerId: z.string(), message: z.string() }),
  output: z.object({ reply: z.string() }),
  models: [
    model(openai("gpt-4o-mini"), {
      description: "Fast model for short customer-facing replies.",
      limits: { requestsPerMinute: 120 },
    }),
  ],
  planner: { model: openai("gpt-5"), system: "You design support reply workflows: one drafting step is enough." },
  concurrency: { key: "{{ input.customerId }}", limit: 2 },
});
