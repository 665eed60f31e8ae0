import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";

/**
 * A long-lived section: one run triages every message of a support inbox. The planner compiles the
 * body once; each message (`POST /v1/runs/:runId/triggers`, or a webhook addressed to the run) is
 * an occurrence of it. A message that fails to triage does not end the run (`"continue"`).
 * Webhooks to `POST /v1/hooks/support.triage-inbox/runs/:runId` are signed with the workflow's own
 * secret (`wrangler secret put TRIAGE_INBOX_WEBHOOK_SECRET`; `LITTLE_WEBHOOK_SECRET` locally).
 */
export const triageInbox = defineWorkflow({
  id: "support.triage-inbox",
  description: "Triage one support message: category, priority and a one-line suggested reply.",
  input: z.object({ from: z.string(), subject: z.string(), body: z.string() }),
  output: z.object({
    category: z.enum(["billing", "bug", "account", "other"]),
    priority: z.enum(["low", "normal", "urgent"]),
    reply: z.string(),
  }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: { model: openai("gpt-5"), system: "You design support-inbox triage workflows. Keep them to one or two steps." },
  onTrigger: { onBodyFailure: "continue" },
  webhook: { secret: "TRIAGE_INBOX_WEBHOOK_SECRET" },
});
