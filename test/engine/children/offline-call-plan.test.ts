import { describe, expect, it } from "vitest";
import { offlinePlan } from "../../../src/adapters/models/offline-plan.ts";
import { registeredCapabilities } from "../../../src/engine/definition-capabilities.ts";
import { planTask } from "../../../src/harness/planner-prompt.ts";
import { checkLwir } from "../../../src/lwir/check-lwir.ts";
import { validateLwir } from "../../../src/lwir/validate-lwir.ts";
import { registeredWorkflows } from "../../../src/workflows.ts";

describe("the offline planner plans workflow.run for a definition with callees", () => {
  it("support.escalate: a step writes billing.refund's input, the workflow.run passes it on, the answer reads the refund", async () => {
    const caps = await registeredCapabilities(registeredWorkflows, "support.escalate");
    const task = planTask(caps, { ticketId: "T-1", transcript: "Refund order ord_1, please." });
    expect(task.callableWorkflows?.map((c) => c.id)).toEqual(["billing.refund"]);
    const lwir = offlinePlan(task) as { steps: { id: string; uses: string; needs: string[]; with: Record<string, unknown> }[] };
    expect(validateLwir(lwir).valid).toBe(true);
    expect(checkLwir(lwir, caps).filter((f) => f.severity === "error")).toEqual([]);
    const run = lwir.steps.find((s) => s.uses === "workflow.run");
    expect(run).toMatchObject({ id: "refund", needs: ["refund_input"], with: { workflow: "billing.refund" } });
    expect(lwir.steps.find((s) => s.id === "generate")?.needs).toContain("refund");
  });

  it("a definition without callees gets the plan and the prompt it had (no callableWorkflows, no workflow.run)", async () => {
    const caps = await registeredCapabilities(registeredWorkflows, "support.summarize-ticket");
    const task = planTask(caps, { ticketId: "T-1", transcript: "x" });
    expect(task.callableWorkflows).toBeUndefined();
    expect(JSON.stringify(offlinePlan(task))).not.toContain("workflow.run");
  });
});
