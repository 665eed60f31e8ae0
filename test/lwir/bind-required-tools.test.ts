import { openai } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { checkLwir } from "../../src/lwir/check-lwir.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { WorkflowDefinitionError } from "../../src/sdk/errors/workflow-definition-error.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { edit } from "../planner-corpus/edit.ts";
import { shippedTask } from "../planner-corpus/tasks.ts";
import { summarizeWithLookup } from "./fixtures.ts";

const required = (findings: readonly Finding[]) => findings.filter((f) => f.code === "binding.required_tool_not_called");

/** billing.refund's plan with its refund call moved into one branch of a decision on the amount. */
function branched(plan: Record<string, unknown>, bothBranches: boolean) {
  return edit(plan, (d) => {
    const refund = d.steps[0];
    const small = { ...refund, id: "small", needs: ["route"] };
    const large = bothBranches
      ? { ...refund, id: "large", needs: ["route"] }
      : {
          id: "large",
          uses: "ai.generate",
          needs: ["route"],
          with: { model: "gpt-4o-mini", prompt: "Say the refund needs a manager: {{ input.orderId }}" },
          output: refund.output,
        };
    d.permissions.models = ["gpt-4o-mini"];
    d.steps = [
      {
        id: "route",
        uses: "decision",
        needs: [],
        with: { cases: [{ when: "{{ lt(input.amountCents, 10000) }}", step: "small" }], default: "large" },
      },
      small,
      large,
      {
        id: "done",
        uses: "code.run",
        needs: ["small", "large"],
        with: { entrypoint: "done.ts", files: {}, sandbox: { network: "deny", env: "deny", fs: "deny" } },
        output: refund.output,
      },
    ];
  });
}

describe("requiredTools (the binding pass)", () => {
  it("billing.refund requires its refund tool: a plan that never calls it is refused, naming the tool and how to call it", async () => {
    const t = await shippedTask("billing.refund");
    expect(t.caps.snapshot.requiredTools).toEqual(["billing.issue-refund"]);
    expect(checkLwir(t.plan, t.caps)).toEqual([]);
    const madeUp = edit(t.plan, (d) => {
      d.permissions = { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] };
      d.steps = [
        {
          id: "answer",
          uses: "ai.generate",
          needs: [],
          with: { model: "gpt-4o-mini", prompt: "Refund {{ input.orderId }}" },
          output: d.steps[0].output,
        },
      ];
    });
    const findings = required(checkLwir(madeUp, t.caps));
    expect(findings.map(({ path, severity }) => ({ path, severity }))).toEqual([{ path: "$.steps", severity: "error" }]);
    expect(findings[0]?.message).toContain('"uses": "tool.call", "with": { "tool": "billing.issue-refund"');
  });

  it("on every path through decisions: a call in one branch only is refused, naming the choice that skips it; one in each branch is accepted", async () => {
    const t = await shippedTask("billing.refund");
    const one = required(checkLwir(branched(t.plan, false), t.caps));
    expect(one).toHaveLength(1);
    expect(one[0]?.message).toContain('when decision "route" chooses "large" no step calling it runs (small is skipped)');
    expect(required(checkLwir(branched(t.plan, true), t.caps))).toEqual([]);
  });

  it("is hashed in the definition snapshot only when authored, and must name a tool of the workflow", async () => {
    const plain = await snapshotDefinition(summarizeWithLookup);
    const withRequired = await snapshotDefinition({ ...summarizeWithLookup, requiredTools: ["crm.lookup"] });
    expect("requiredTools" in plain.snapshot).toBe(false);
    expect(withRequired.definitionHash).not.toBe(plain.definitionHash);
    const authored = (requiredTools: string[]) =>
      defineWorkflow({
        id: "test.required",
        description: "Look a ticket up.",
        input: z.object({ ticket: z.string() }),
        output: z.object({ ok: z.boolean() }),
        models: [model(openai("gpt-4o-mini"), { description: "Fast." })],
        planner: { model: openai("gpt-5"), system: "Plan." },
        tools: { "crm.lookup": tool({ description: "Look up.", inputSchema: z.object({ ticket: z.string() }) }) },
        requiredTools,
      });
    expect(authored(["crm.lookup"]).requiredTools).toEqual(["crm.lookup"]);
    expect(() => authored(["crm.lookups"])).toThrow(WorkflowDefinitionError);
  });
});
