import { describe, expect, it } from "vitest";
import { checkLwir } from "../../src/lwir/check-lwir.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { type Draft, edit, step } from "../planner-corpus/edit.ts";
import { summarizeFanOutPlan } from "../planner-corpus/plans.ts";
import { shippedTask } from "../planner-corpus/tasks.ts";

const typed = (findings: readonly Finding[]) => findings.filter((f) => f.code.startsWith("template."));
const located = (findings: readonly Finding[]) => findings.map(({ severity, code, path }) => ({ severity, code, path }));

async function check(workflow: Parameters<typeof shippedTask>[0], change: (d: Draft) => void): Promise<Finding[]> {
  const t = await shippedTask(workflow);
  return checkLwir(edit(t.plan, change), t.caps);
}

describe("the template type pass (validator @2)", () => {
  it("every shipped example's intended plan has no type finding", async () => {
    for (const id of [
      "support.summarize-ticket",
      "support.triage-inbox",
      "billing.refund",
      "billing.invoice-totals",
      "ops.daily-digest",
    ] as const) {
      const t = await shippedTask(id);
      expect(checkLwir(t.plan, t.caps), id).toEqual([]);
    }
    const fan = await shippedTask("support.summarize-ticket");
    expect(checkLwir(summarizeFanOutPlan(fan.task), fan.caps)).toEqual([]);
  });

  it('text around an expression makes a string: "{{ input.amountCents }} cents" into an integer field is refused, naming the whole-string form', async () => {
    const findings = await check("billing.refund", (d) => {
      d.steps[0].with.input.amountCents = "{{ input.amountCents }} cents";
    });
    expect(located(findings)).toEqual([{ severity: "error", code: "template.type_mismatch", path: "$.steps[0].with.input.amountCents" }]);
    expect(findings[0]?.message).toContain("gives string where integer is expected");
    expect(findings[0]?.message).toContain('write exactly "{{ input.amountCents }}" with nothing around it');
  });

  it("an input field the (open) input schema does not declare is a warning that names the closest one", async () => {
    const findings = await check("billing.refund", (d) => {
      d.steps[0].with.input.amountCents = "{{ input.amount }}";
    });
    expect(located(findings)).toEqual([{ severity: "warning", code: "template.unknown_field", path: "$.steps[0].with.input.amountCents" }]);
    expect(findings[0]?.message).toContain('did you mean "amountCents"?');
  });

  it("a field a closed step output does not have is an error; a choice output is a string with no fields", async () => {
    const findings = await check("support.triage-inbox", (d) => {
      step(d, "urgent").with.prompt = "{{ steps.classify.output.label }} reply";
    });
    expect(located(typed(findings))).toEqual([{ severity: "error", code: "template.unknown_field", path: "$.steps[2].with.prompt" }]);
    expect(findings[0]?.message).toContain('steps.classify.output is "urgent" | "normal", which has no field "label"');
  });

  it("a decision's output is { chosen } with its targets", async () => {
    const ok = await check("support.triage-inbox", (d) => {
      step(d, "urgent").needs = ["route"];
      step(d, "urgent").with.prompt = "Route {{ steps.route.output.chosen }}";
    });
    expect(ok).toEqual([]);
    const wrong = await check("support.triage-inbox", (d) => {
      step(d, "urgent").with.prompt = "Route {{ steps.route.output.choice }}";
    });
    expect(wrong[0]?.message).toContain('steps.route.output has no field "choice" (its fields: chosen); did you mean "chosen"?');
  });

  it("a prompt that is a whole object is refused (it would print as [object Object]), naming json()", async () => {
    const findings = await check("support.summarize-ticket", (d) => {
      d.steps[0].with.prompt = "{{ input }}";
    });
    expect(located(findings)).toEqual([{ severity: "error", code: "template.type_mismatch", path: "$.steps[0].with.prompt" }]);
    expect(findings[0]?.message).toContain("json(…)");
  });

  it("a forEach step's output is an array of its branch output: reading a branch field off it is an error, [i] is fine", async () => {
    const t = await shippedTask("support.summarize-ticket");
    const plan = summarizeFanOutPlan(t.task);
    const at = (prompt: string) =>
      checkLwir(
        edit(plan, (d) => {
          step(d, "summarize").with.prompt = prompt;
        }),
        t.caps,
      );
    expect(at("First note: {{ steps.notes.output[0] }}")).toEqual([]);
    const field = at("{{ steps.notes.output.text }}");
    expect(located(field)).toEqual([{ severity: "error", code: "template.unknown_field", path: "$.steps[2].with.prompt" }]);
    expect(field[0]?.message).toContain("steps.notes.output is array of string");
  });

  it("with all_settled the items are { status, output } | { status, error }", async () => {
    const t = await shippedTask("support.summarize-ticket");
    const plan = edit(summarizeFanOutPlan(t.task), (d) => {
      step(d, "notes").forEach.failureMode = "all_settled";
      step(d, "summarize").with.prompt =
        "{{ steps.notes.output[0].status }} {{ steps.notes.output[0].output }} {{ steps.notes.output[0].nope }}";
    });
    const findings = checkLwir(plan, t.caps);
    expect(located(findings)).toEqual([{ severity: "error", code: "template.unknown_field", path: "$.steps[2].with.prompt" }]);
    expect(findings[0]?.message).toContain("(its fields: status, output, error)");
  });

  it("a forEach as the terminal step gives an array where the workflow's object is requested", async () => {
    const t = await shippedTask("support.summarize-ticket");
    const plan = edit(summarizeFanOutPlan(t.task), (d) => {
      d.steps = d.steps.slice(0, 2);
      step(d, "notes").output = JSON.parse(JSON.stringify(t.task.requestedOutput));
    });
    const findings = checkLwir(plan, t.caps);
    expect(located(typed(findings))).toEqual([{ severity: "error", code: "template.type_mismatch", path: "$.steps[1].output" }]);
    expect(findings.find((f) => f.code === "template.type_mismatch")?.message).toContain(
      "A forEach step's output is the array of its branch outputs",
    );
  });

  it("fan-out items must be an array; item has the element's type", async () => {
    const t = await shippedTask("support.summarize-ticket");
    const items = (expr: string, prompt = "{{ item }}") =>
      checkLwir(
        edit(summarizeFanOutPlan(t.task), (d) => {
          step(d, "notes").forEach.items = expr;
          step(d, "notes").with.prompt = prompt;
        }),
        t.caps,
      );
    expect(located(items("{{ steps.chunk.output }}"))).toEqual([
      { severity: "error", code: "template.type_mismatch", path: "$.steps[1].forEach.items" },
    ]);
    expect(located(items("{{ steps.chunk.output.chunks }}", "{{ item.text }}"))).toEqual([
      { severity: "error", code: "template.unknown_field", path: "$.steps[1].with.prompt" },
    ]);
  });

  it("a join's default() whose branches give different types into one typed field: each must fit", async () => {
    const findings = await check("billing.refund", (d) => {
      d.steps[0].with.input.orderId = "{{ default(input.orderId, input.amountCents) }}";
    });
    expect(located(findings)).toEqual([{ severity: "error", code: "template.type_mismatch", path: "$.steps[0].with.input.orderId" }]);
    expect(findings[0]?.message).toContain("Either argument of default(…) may be the value used");
  });

  it("the terminal step's object output must be able to match the workflow's output", async () => {
    const findings = await check("billing.refund", (d) => {
      d.steps[0].output.schema.properties.refundId = { type: "integer" };
    });
    expect(located(typed(findings))).toEqual([{ severity: "error", code: "template.type_mismatch", path: "$.steps[0].output" }]);
    expect(findings[0]?.message).toContain('field "refundId": integer where string is expected');
  });

  it("a default() over every branch, or ending in a literal, is never missing", async () => {
    const join = (expr: string) =>
      check("support.triage-inbox", (d) => {
        step(d, "pick").with.input = { reply: expr };
      });
    expect(await join("{{ default(steps.urgent.output.reply, steps.normal.output.reply) }}")).toEqual([]);
  });
});
