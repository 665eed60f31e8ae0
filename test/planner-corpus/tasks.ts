import { registeredCapabilities } from "../../src/engine/definition-capabilities.ts";
import { type PlanTask, planTask } from "../../src/harness/planner-prompt.ts";
import type { DefinitionCapabilities } from "../../src/identity/definition-snapshot.ts";
import { registeredWorkflows } from "../../src/workflows.ts";
import {
  digestPlan,
  escalatePlan,
  invoicePlan,
  invoiceSkillSource,
  type Json,
  refundPlan,
  refundReviewPlan,
  replyDraftPlan,
  SAMPLE_INPUTS,
  summarizePlan,
  triagePlan,
  type WorkflowId,
} from "./plans.ts";

export type ShippedTask = {
  readonly workflowId: WorkflowId;
  readonly caps: DefinitionCapabilities;
  /** The task the planner gets, built exactly as the planner session builds it. */
  readonly task: PlanTask;
  readonly input: unknown;
  /** Skill bodies by name, as the planner's bash serves them under .agents/skills. */
  readonly skills: Readonly<Record<string, string>>;
  /** The plan the model means to write. */
  readonly plan: Json;
};

const cache = new Map<WorkflowId, Promise<ShippedTask>>();

/** The planner task of a shipped example (src/workflows.ts), with the sample input. */
export function shippedTask(workflowId: WorkflowId): Promise<ShippedTask> {
  let hit = cache.get(workflowId);
  if (!hit) {
    hit = build(workflowId);
    cache.set(workflowId, hit);
  }
  return hit;
}

async function build(workflowId: WorkflowId): Promise<ShippedTask> {
  const registered = registeredWorkflows.find((w) => w.definition.id === workflowId);
  if (!registered) throw new Error(`no shipped workflow ${workflowId}`);
  const caps = await registeredCapabilities(registeredWorkflows, workflowId);
  const input = SAMPLE_INPUTS[workflowId];
  const task = planTask(caps, input);
  const skills = Object.fromEntries(registered.definition.planner.skills.map((s) => [s.name, s.body]));
  const plan =
    workflowId === "support.summarize-ticket"
      ? summarizePlan(task)
      : workflowId === "support.triage-inbox"
        ? triagePlan(task)
        : workflowId === "billing.refund"
          ? refundPlan(task)
          : workflowId === "ops.daily-digest"
            ? digestPlan(task)
            : workflowId === "billing.refund-review"
              ? refundReviewPlan(task)
              : workflowId === "support.escalate"
                ? escalatePlan(task)
                : workflowId === "support.reply-draft"
                  ? replyDraftPlan(task)
                  : invoicePlan(task, invoiceSkillSource(skills["invoice-totals-plan"] as string));
  return { workflowId, caps, task, input, skills, plan };
}

export const SHIPPED: readonly WorkflowId[] = [
  "support.summarize-ticket",
  "support.triage-inbox",
  "billing.refund",
  "billing.invoice-totals",
  "ops.daily-digest",
  "billing.refund-review",
  "support.escalate",
  "support.reply-draft",
];
