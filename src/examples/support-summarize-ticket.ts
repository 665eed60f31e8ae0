import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";

/** The seed's worked example, as written there (the input to `defineWorkflow`, for variations). */
export const summarizeTicketDefinition = {
  id: "support.summarize-ticket",
  description: "Summarize a support ticket and classify its severity.",
  input: z.object({
    ticketId: z.string(),
    transcript: z.string(),
  }),
  output: z.object({
    summary: z.string(),
    severity: z.enum(["low", "medium", "high"]),
  }),
  // Execution model slots (the planner chooses among these in LWIR step with.model)
  models: [
    model(openai("gpt-5"), { description: "Strong reasoning model for complex analysis." }),
    model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
  ],
  planner: {
    model: openai("gpt-5"),
    system: "You design support-ticket workflows. Test code in scratch before committing.",
  },
};

/**
 * The seed's example, taking tickets from a helpdesk's Standard Webhooks too: deliveries to
 * `POST /v1/hooks/support.summarize-ticket` are signed with its own Worker secret
 * (`wrangler secret put SUMMARIZE_TICKET_WEBHOOK_SECRET`; `LITTLE_WEBHOOK_SECRET` locally).
 */
export const summarizeTicket = defineWorkflow({ ...summarizeTicketDefinition, webhook: { secret: "SUMMARIZE_TICKET_WEBHOOK_SECRET" } });
