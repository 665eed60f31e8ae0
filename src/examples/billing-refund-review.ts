import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { digestJson, digestPrefix } from "../json/digest.ts";
import type { AuthoredPlan, PlanJson } from "../sdk/authored-plan.ts";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";
import { tool } from "../sdk/tool.ts";

/**
 * Refunds an order once a manager said yes. Not the approval-gated `billing.issue-refund` of
 * `billing.refund`: here the manager's `manager.decision` signal is the approval. The refund id is
 * derived from the arguments instead of calling a payment provider (swap `execute` for yours).
 */
export const refundOrder = tool({
  description: "Refund an amount (in cents) on an order, after the manager approved it.",
  inputSchema: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
  outputSchema: z.object({ refundId: z.string() }),
  execute: async ({ orderId, amountCents }: { orderId: string; amountCents: number }) => ({
    refundId: `rf_${digestPrefix(digestJson({ orderId, amountCents, review: true }), 12)}`,
  }),
});

/** How long the manager has to decide: two days, then the request expires. */
export const REVIEW_TIMEOUT_MS = 2 * 86_400_000;

/** The answer, from what happened: the wait's outcome and the refund (when one was made). */
const ANSWER_SOURCE = `type Answer = { timedOut: boolean; approved: boolean; note: string; refundId: string };

export function run({ input }: { input: Answer }) {
  if (input.timedOut) return { status: "expired", note: "No decision from a manager before the deadline" };
  if (input.approved && input.refundId) return { status: "refunded", note: input.note || \`Refunded as \${input.refundId}\` };
  return { status: "declined", note: input.note || "Declined by the manager" };
}
`;

const NOOP_SOURCE = `export function run() {
  return { declined: true };
}
`;

const code = (file: string, content: string, input?: Record<string, string>): { [key: string]: PlanJson } => ({
  entrypoint: file,
  files: { [file]: { content, sha256: "<sha256 of the content>" } },
  sandbox: { network: "deny", env: "deny", fs: "deny" },
  ...(input ? { input } : {}),
});

/**
 * The natural plan, stated by the author: the offline model submits it, a real planner is shown it
 * as a suggestion (docs/testing.md). Summarize for the manager, wait up to two days for
 * `manager.decision`, refund when approved, and answer from what happened (code, no model).
 */
const REFUND_REVIEW_PLAN: AuthoredPlan = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "<workflow-id>", version: "0.1.0", description: "Summarize, wait for the manager's decision, refund or decline." },
  input: { schema: "<input-schema>" },
  output: { schema: "<output-schema>" },
  permissions: { models: ["<model-slot>"], tools: ["billing.refund-order"], secrets: [], network: [] },
  steps: [
    {
      id: "summary",
      uses: "ai.generate",
      needs: [],
      with: {
        model: "<model-slot>",
        prompt:
          "Summarize this refund request for the manager who decides it, in two sentences.\n- orderId: {{ input.orderId }}\n- amountCents: {{ input.amountCents }}\n- reason: {{ input.reason }}",
      },
      output: { mode: "text" },
    },
    { id: "review", uses: "wait.signal", needs: ["summary"], with: { signals: ["manager.decision"], timeoutMs: REVIEW_TIMEOUT_MS } },
    {
      id: "route",
      uses: "decision",
      needs: ["review"],
      with: { cases: [{ when: "{{ steps.review.output.payload.approved }}", step: "refund" }], default: "decline" },
    },
    {
      id: "refund",
      uses: "tool.call",
      needs: ["route"],
      with: { tool: "billing.refund-order", input: { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" } },
      output: { mode: "json" },
    },
    { id: "decline", uses: "code.run", needs: ["route"], with: code("decline.ts", NOOP_SOURCE), output: { mode: "json" } },
    {
      id: "answer",
      uses: "code.run",
      needs: ["review", "refund", "decline"],
      with: code("answer.ts", ANSWER_SOURCE, {
        timedOut: "{{ steps.review.output.timedOut }}",
        approved: "{{ default(steps.review.output.payload.approved, false) }}",
        note: '{{ default(steps.review.output.payload.note, "") }}',
        refundId: '{{ default(steps.refund.output.refundId, "") }}',
      }),
      output: "<requested-output>",
    },
  ],
};

/**
 * A refund a manager reviews (docs/waits.md): the run drafts a summary, waits up to two days for the
 * `manager.decision` signal (`POST /v1/runs/:runId/signals`, `little signal`, or the inspector's
 * form), then refunds or declines; no decision in time expires the request.
 */
export const refundReview = defineWorkflow({
  id: "billing.refund-review",
  description: "Review a refund request: summarize it for a manager, wait for the manager's decision, then refund or decline.",
  input: z.object({ orderId: z.string(), amountCents: z.number().int().positive(), reason: z.string() }),
  output: z.object({ status: z.enum(["refunded", "declined", "expired"]), note: z.string() }),
  models: [model(openai("gpt-4o-mini"), { description: "Writes the summary the manager reads." })],
  planner: {
    model: openai("gpt-5"),
    system: "You design billing workflows. A person decides refunds: wait for their signal, with a timeout.",
  },
  tools: { "billing.refund-order": refundOrder },
  signals: {
    "manager.decision": {
      schema: z.object({ approved: z.boolean(), note: z.string().optional() }),
      description: "The manager approves (approved: true) or declines the refund, with an optional note for the customer",
    },
  },
  plan: REFUND_REVIEW_PLAN,
});
