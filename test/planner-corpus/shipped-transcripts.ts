import { writeFileCommand } from "../../src/adapters/models/offline-prompt.ts";
import { edit } from "./edit.ts";
import { invoiceSkillSource, type Json, PICK_SOURCE, type WorkflowId } from "./plans.ts";
import { type BashResult, type Turn, writeAndCheck } from "./replay-model.ts";
import type { ShippedTask } from "./tasks.ts";

/** `sha256:` + the hex `sha256sum` printed in the shown bash result (the prompt's recipe). */
function digestFromSha256sum(result: unknown, file: string): string {
  const line = (result as BashResult).stdout.split("\n").find((l) => l.trim().endsWith(file));
  const hex = line?.split(/\s+/)[0];
  if (!hex || !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`no sha256sum line for ${file}`);
  return `sha256:${hex}`;
}

/**
 * First-try transcripts of the shipped examples: the model reads what the prompt points it to
 * (the task file, the reference, a skill), writes code files and takes their digest with
 * `sha256sum`, writes the draft, runs `lwir-check` on it, and submits once. Each plan is the one
 * in plans.ts, with every digest taken from the model's own bash output.
 */
export function shippedTurns(t: ShippedTask): Turn[] {
  switch (t.workflowId) {
    case "support.summarize-ticket":
    case "ops.daily-digest":
    case "support.reply-draft":
      return [
        () => ({
          tool: "bash",
          command: "jq -c '{id: .workflowSnapshot.id, slots: .workflowSnapshot.modelSlots, requestedOutput}' /mnt/task/plan-task.json",
        }),
        () => ({ tool: "bash", command: writeAndCheck(t.plan) }),
        () => ({ tool: "submit_lwir", lwir: t.plan }),
      ];
    case "support.triage-inbox": {
      let plan: Json = t.plan;
      return [
        // How a decision chooses, what a skipped step is, how a join reads the branch that ran.
        () => ({ tool: "bash", command: "sed -n '/^## Templates/,/^## code.run/p' /mnt/task/lwir-reference.md" }),
        () => ({ tool: "bash", command: `mkdir -p code && ${writeFileCommand("code/pick.ts", PICK_SOURCE)}\nsha256sum code/pick.ts` }),
        (shown) => {
          const sha256 = digestFromSha256sum(shown.at(-1)?.value, "code/pick.ts");
          plan = edit(t.plan, (d) => {
            d.steps.find((s: Json) => s.id === "pick").with.files["pick.ts"].sha256 = sha256;
          });
          return { tool: "bash", command: writeAndCheck(plan) };
        },
        () => ({ tool: "submit_lwir", lwir: plan }),
      ];
    }
    case "billing.refund-review":
      return [
        // What may be waited for, and each payload's schema.
        () => ({ tool: "bash", command: "jq -c '.workflowSnapshot.signals' /mnt/task/plan-task.json" }),
        () => ({ tool: "bash", command: writeAndCheck(t.plan) }),
        () => ({ tool: "submit_lwir", lwir: t.plan }),
      ];
    case "support.escalate":
      return [
        // The callee's schemas are in the task; the prompt's Example 3 shows the shape of the call.
        () => ({ tool: "bash", command: "jq '.callableWorkflows' /mnt/task/plan-task.json" }),
        () => ({ tool: "bash", command: writeAndCheck(t.plan) }),
        () => ({ tool: "submit_lwir", lwir: t.plan }),
      ];
    case "billing.refund":
      return [
        () => ({ tool: "bash", command: "jq '.workflowSnapshot.tools, .input' /mnt/task/plan-task.json" }),
        () => ({ tool: "bash", command: writeAndCheck(t.plan) }),
        () => ({ tool: "submit_lwir", lwir: t.plan }),
      ];
    case "billing.invoice-totals": {
      let plan: Json = t.plan;
      return [
        // The system prompt lists the skill: "(read: cat .agents/skills/invoice-totals-plan/SKILL.md)".
        () => ({ tool: "bash", command: "cat .agents/skills/invoice-totals-plan/SKILL.md" }),
        // The model copies the skill's totals.ts into a file and takes its digest.
        (shown) => {
          const source = invoiceSkillSource(String((shown.at(-1)?.value as BashResult | undefined)?.stdout));
          return { tool: "bash", command: `${writeFileCommand("totals.ts", source)}\nsha256sum totals.ts` };
        },
        (shown) => {
          const sha256 = digestFromSha256sum(shown.at(-1)?.value, "totals.ts");
          plan = edit(t.plan, (d) => {
            d.steps[0].with.files["totals.ts"].sha256 = sha256;
          });
          return { tool: "bash", command: writeAndCheck(plan) };
        },
        () => ({ tool: "submit_lwir", lwir: plan }),
      ];
    }
  }
}

export type { WorkflowId };
