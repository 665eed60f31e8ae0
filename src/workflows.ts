import type { RegisteredWorkflow } from "./engine/run-environment.ts";
import { invoiceTotals } from "./examples/billing-invoice-totals.ts";
import { billingRefund } from "./examples/billing-refund.ts";
import { refundReview } from "./examples/billing-refund-review.ts";
import { dailyDigest } from "./examples/ops-daily-digest.ts";
import { supportEscalate } from "./examples/support-escalate.ts";
import { replyDraft } from "./examples/support-reply-draft.ts";
import { summarizeTicket } from "./examples/support-summarize-ticket.ts";
import { triageInbox } from "./examples/support-triage-inbox.ts";

/**
 * The workflows this Worker can run, by id, each with the tool registry its `globalTools` resolve
 * against. Add yours here.
 */
export const registeredWorkflows: RegisteredWorkflow[] = [
  { definition: summarizeTicket, tools: {} },
  { definition: triageInbox, tools: {} },
  { definition: billingRefund, tools: {} },
  { definition: invoiceTotals, tools: {} },
  { definition: dailyDigest, tools: {} },
  { definition: refundReview, tools: {} },
  { definition: supportEscalate, tools: {} },
  { definition: replyDraft, tools: {} },
];
