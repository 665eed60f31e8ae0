import { describe, expect, it } from "vitest";
import { offlinePlan } from "../../../src/adapters/models/offline-plan.ts";
import { checkLwir } from "../../../src/lwir/check-lwir.ts";
import { hasNoErrors } from "../../../src/sdk/finding.ts";
import { SHIPPED, shippedTask } from "../../planner-corpus/tasks.ts";

describe("the offline planner's plan", () => {
  it("is accepted (validator @2, required tools) for every shipped example", async () => {
    for (const id of SHIPPED) {
      const t = await shippedTask(id);
      const findings = checkLwir(offlinePlan(t.task), t.caps);
      expect(hasNoErrors(findings), `${id}: ${JSON.stringify(findings)}`).toBe(true);
    }
  });

  it("calls billing.refund's required refund tool before it answers", async () => {
    const t = await shippedTask("billing.refund");
    const plan = offlinePlan(t.task) as { steps: { uses: string; with: { tool?: string; input?: unknown } }[] };
    expect(plan.steps[0]).toMatchObject({
      uses: "tool.call",
      with: { tool: "billing.issue-refund", input: { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" } },
    });
  });
});
