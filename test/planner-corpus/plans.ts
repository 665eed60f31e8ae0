import type { PlanTask } from "../../src/harness/planner-prompt.ts";
import { digestText } from "../../src/json/digest.ts";

/**
 * The plan a capable model means to write for each shipped example, built only from what the
 * planner is given: the task in the user prompt (schemas, slots, tools, requestedOutput), the two
 * worked examples, the field reference and, for billing.invoice-totals, its skill. Every corpus
 * transcript starts from one of these and gets one thing wrong.
 */

export type Json = Record<string, unknown>;
export type WorkflowId =
  | "support.summarize-ticket"
  | "support.triage-inbox"
  | "billing.refund"
  | "billing.invoice-totals"
  | "ops.daily-digest"
  | "billing.refund-review"
  | "support.escalate"
  | "support.reply-draft";

/** A sample run input per shipped example, valid against its input schema. */
export const SAMPLE_INPUTS: Readonly<Record<WorkflowId, unknown>> = {
  "support.summarize-ticket": { ticketId: "T-1042", transcript: "Customer: I cannot log in since Monday. Agent: resetting your 2FA." },
  "support.triage-inbox": { from: "ops@acme.test", subject: "Checkout is down", body: "Nobody can pay since 09:00. Please help now!" },
  "billing.refund": { orderId: "ord_77", amountCents: 1250, reason: "Damaged on arrival" },
  "billing.invoice-totals": {
    invoiceId: "inv_9",
    lineItems: [
      { description: "Widget", quantity: 3, unitCents: 1999 },
      { description: "Shipping", quantity: 1, unitCents: 500 },
    ],
    taxRate: 0.2,
  },
  // The static input of its cron schedule.
  "ops.daily-digest": { team: "support", focus: "tickets opened overnight" },
  "billing.refund-review": { orderId: "ord_88", amountCents: 4200, reason: "Charged twice" },
  "support.escalate": { ticketId: "T-2001", transcript: "Customer: order ord_88 arrived broken, I want my 19.99 back." },
  "support.reply-draft": { customerId: "c-42", message: "My export has been stuck at 90% for an hour. Can you help?" },
};

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function header(task: PlanTask, description: string, models: string[], tools: string[]): Json {
  return {
    apiVersion: task.lwirApiVersion,
    kind: "Workflow",
    metadata: { name: task.workflowSnapshot.id, version: "0.1.0", description },
    input: { schema: clone(task.inputSchema) },
    output: { schema: clone(task.outputSchema) },
    permissions: { models, tools, secrets: [], network: [] },
  };
}

const slotIds = (task: PlanTask) => task.workflowSnapshot.modelSlots.map((s) => s.id);

/** support.summarize-ticket: one ai.generate step on the fast slot (the model reads both slot descriptions). */
export function summarizePlan(task: PlanTask): Json {
  const fast = slotIds(task).includes("gpt-4o-mini") ? "gpt-4o-mini" : (slotIds(task)[0] as string);
  return {
    ...header(task, "Summarize the ticket and classify its severity in one structured call.", [fast], []),
    steps: [
      {
        id: "summarize",
        uses: "ai.generate",
        needs: [],
        with: {
          model: fast,
          system: "You are a support analyst. Be factual and brief.",
          prompt:
            "Ticket {{ input.ticketId }}.\nTranscript:\n{{ input.transcript }}\n\nWrite a 1-2 sentence summary and rate severity as low, medium or high.",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/** support.reply-draft (the flow-control example): one ai.generate step on its one slot. */
export function replyDraftPlan(task: PlanTask): Json {
  const slot = slotIds(task)[0] as string;
  return {
    ...header(task, "Draft the reply in one structured call.", [slot], []),
    steps: [
      {
        id: "draft",
        uses: "ai.generate",
        needs: [],
        with: {
          model: slot,
          system: "You write short, friendly replies to customers' support messages.",
          prompt: "Customer {{ input.customerId }} wrote:\n{{ input.message }}\n\nDraft a two or three sentence reply.",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/** ops.daily-digest (the scheduled example): one ai.generate step on its one slot. */
export function digestPlan(task: PlanTask): Json {
  const slot = slotIds(task)[0] as string;
  return {
    ...header(task, "Write the team's morning digest in one structured call.", [slot], []),
    steps: [
      {
        id: "digest",
        uses: "ai.generate",
        needs: [],
        with: {
          model: slot,
          system: "You write short, concrete morning digests for operations teams.",
          prompt: "Team: {{ input.team }}\nFocus: {{ input.focus }}\n\nWrite a one-line headline and up to five items to look at first.",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/** The join of the triage plan: returns whichever drafting branch ran (the decision skipped the other). */
export const PICK_SOURCE = `export function run({ input }: { input: { category: string; priority: string; reply: string } }) {
  return input;
}
`;

/**
 * support.triage-inbox with a decision and a join: classify urgency, route urgent mail to its own
 * drafting step, join the two branches in code.run with default().
 */
export function triagePlan(task: PlanTask): Json {
  const slot = slotIds(task)[0] as string;
  const message = "From: {{ input.from }}\nSubject: {{ input.subject }}\n\n{{ input.body }}";
  const draft = (id: string, tone: string) => ({
    id,
    uses: "ai.generate",
    needs: ["route"],
    with: {
      model: slot,
      prompt: `${tone}\nCategorize the message (billing, bug, account or other), set its priority and suggest a one-line reply.\n\n${message}`,
    },
    output: clone(task.requestedOutput),
  });
  return {
    ...header(task, "Classify urgency, draft urgent and normal mail separately, join the branches.", [slot], []),
    steps: [
      {
        id: "classify",
        uses: "ai.generate",
        needs: [],
        with: {
          model: slot,
          prompt: `Is this support message urgent (service down, money lost, security)? Answer urgent or normal.\n\n${message}`,
        },
        output: { mode: "choice", values: ["urgent", "normal"] },
      },
      {
        id: "route",
        uses: "decision",
        needs: ["classify"],
        with: { cases: [{ when: '{{ eq(steps.classify.output, "urgent") }}', step: "urgent" }], default: "normal" },
      },
      draft("urgent", "This message is urgent: priority must be urgent; the reply promises a response within the hour."),
      draft("normal", "This message is not urgent: priority is low or normal."),
      {
        id: "pick",
        uses: "code.run",
        needs: ["urgent", "normal"],
        with: {
          entrypoint: "pick.ts",
          files: { "pick.ts": { content: PICK_SOURCE, sha256: digestText(PICK_SOURCE) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: "{{ default(steps.urgent.output, steps.normal.output) }}",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/** billing.refund: one tool.call of the refund tool with the run's order and amount. */
export function refundPlan(task: PlanTask): Json {
  const tool = task.workflowSnapshot.tools[0]?.id as string;
  return {
    ...header(task, "Issue the refund through the refund tool (a person approves the call).", [], [tool]),
    steps: [
      {
        id: "refund",
        uses: "tool.call",
        needs: [],
        with: { tool, input: { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" } },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/**
 * support.escalate: what the prompt's Example 3 shows: a step writes billing.refund's input from the
 * transcript, the workflow.run passes it on, and the answer reads the child's output (the refund).
 */
export function escalatePlan(task: PlanTask): Json {
  const slot = slotIds(task)[0] as string;
  const callee = task.callableWorkflows?.[0];
  return {
    ...header(task, "Work out the refund, run billing.refund for it, summarize.", [slot], []),
    steps: [
      {
        id: "extract",
        uses: "ai.generate",
        needs: [],
        with: {
          model: slot,
          prompt: "From this ticket, give the order id, the amount in cents and the reason for the refund:\n{{ input.transcript }}",
        },
        output: { mode: "object", schema: clone(callee?.inputSchema) },
      },
      {
        id: "refund",
        uses: "workflow.run",
        needs: ["extract"],
        with: {
          workflow: callee?.id,
          input: {
            orderId: "{{ steps.extract.output.orderId }}",
            amountCents: "{{ steps.extract.output.amountCents }}",
            reason: "{{ steps.extract.output.reason }}",
          },
        },
        output: clone(callee?.requestedOutput),
      },
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["refund"],
        with: {
          model: slot,
          prompt: "Summarize the escalation of ticket {{ input.ticketId }}.\n- refund: {{ json(steps.refund.output) }}",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/** The file the invoice-totals skill ships (the skill body is what the planner reads with cat). */
export function invoiceSkillSource(skillBody: string): string {
  const draft = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(skillBody)?.[1] ?? "null") as {
    steps: { with: { files: Record<string, { content: string }> } }[];
  };
  return draft.steps[0]?.with.files["totals.ts"]?.content as string;
}

/** billing.invoice-totals: the skill's draft with its placeholders filled from the task. */
export function invoicePlan(task: PlanTask, source: string): Json {
  const slot = slotIds(task)[0] as string;
  return {
    ...header(task, "Total an invoice with code; a fixer repairs the code if it fails.", [slot], []),
    steps: [
      {
        id: "totals",
        uses: "code.run",
        needs: [],
        with: {
          entrypoint: "totals.ts",
          files: { "totals.ts": { content: source, sha256: digestText(source) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
        },
        output: clone(task.requestedOutput),
        onFailure: {
          fixer: {
            model: slot,
            maxAttempts: 2,
            system: "Repair totals.ts so that run({ input }) returns the invoice totals in cents matching the output schema.",
          },
        },
      },
    ],
  };
}

/** Splits a long transcript into chunks (the fan-out variant of summarize, after Example 2). */
export const CHUNK_SOURCE = `export function run({ input }: { input: { transcript: string } }) {
  const chunks = input.transcript.match(/[\\s\\S]{1,4000}/g) ?? [];
  return { chunks };
}
`;

/** support.summarize-ticket as Example 2 teaches a fan-out: chunk in code, note each chunk, summarize the notes. */
export function summarizeFanOutPlan(task: PlanTask): Json {
  const slot = slotIds(task).includes("gpt-4o-mini") ? "gpt-4o-mini" : (slotIds(task)[0] as string);
  return {
    ...header(task, "Chunk the transcript, note each chunk, summarize the notes.", [slot], []),
    steps: [
      {
        id: "chunk",
        uses: "code.run",
        needs: [],
        with: {
          entrypoint: "chunk.ts",
          files: { "chunk.ts": { content: CHUNK_SOURCE, sha256: digestText(CHUNK_SOURCE) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: { transcript: "{{ input.transcript }}" },
        },
        output: {
          mode: "object",
          schema: { type: "object", properties: { chunks: { type: "array", items: { type: "string" } } }, required: ["chunks"] },
        },
      },
      {
        id: "notes",
        uses: "ai.generate",
        needs: ["chunk"],
        forEach: { items: "{{ steps.chunk.output.chunks }}", maxConcurrency: 4 },
        with: { model: slot, prompt: "List the customer's problem and any facts in this part of a support transcript:\n{{ item }}" },
        output: { mode: "text" },
      },
      {
        id: "summarize",
        uses: "ai.generate",
        needs: ["notes"],
        with: {
          model: slot,
          prompt:
            "Ticket {{ input.ticketId }}. Notes:\n{{ json(steps.notes.output) }}\nSummarize in 1-2 sentences and rate severity low, medium or high.",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}

/**
 * billing.refund-review, as a model writes it from the prompt's signal example: a summary for the
 * manager, a wait.signal for `manager.decision` with a timeout, a decision on `timedOut`, and a
 * join that answers the requested output from whichever branch ran and the signal's payload.
 */
export function refundReviewPlan(task: PlanTask): Json {
  const slot = slotIds(task)[0] as string;
  const signal = task.workflowSnapshot.signals?.[0]?.name as string;
  const text = (id: string, needs: string[], prompt: string) => ({
    id,
    uses: "ai.generate",
    needs,
    with: { model: slot, prompt },
    output: { mode: "text" },
  });
  return {
    ...header(task, "Summarize, wait for the manager's decision (two days), answer.", [slot], []),
    steps: [
      text(
        "summary",
        [],
        "Summarize this refund request for a manager: order {{ input.orderId }}, {{ input.amountCents }} cents, {{ input.reason }}",
      ),
      { id: "review", uses: "wait.signal", needs: ["summary"], with: { signals: [signal], timeoutMs: 172_800_000 } },
      {
        id: "route",
        uses: "decision",
        needs: ["review"],
        with: { cases: [{ when: "{{ steps.review.output.timedOut }}", step: "expire" }], default: "decide" },
      },
      text("expire", ["route"], "Say in one sentence that refund request {{ input.orderId }} expired without a decision."),
      text("decide", ["route"], "State the manager's decision on refund {{ input.orderId }}: {{ json(steps.review.output.payload) }}"),
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["review", "expire", "decide"],
        with: {
          model: slot,
          prompt:
            "Answer with the refund's status and a note.\n- timedOut: {{ steps.review.output.timedOut }}\n- decision: {{ json(steps.review.output.payload) }}\n- note: {{ default(steps.expire.output, steps.decide.output) }}",
        },
        output: clone(task.requestedOutput),
      },
    ],
  };
}
