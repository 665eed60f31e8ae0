import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { writeFileCommand } from "../../../src/adapters/models/offline-prompt.ts";
import { draftFromSkills, skillsNamedIn } from "../../../src/adapters/models/offline-skill-plan.ts";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { invoiceTotals, invoiceTotalsRecipe } from "../../../src/examples/billing-invoice-totals.ts";
import { planTask } from "../../../src/harness/planner-prompt.ts";
import { checkDraft } from "../../../src/harness/planner-session.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import { digestText } from "../../../src/json/digest.ts";

const INPUT = { invoiceId: "INV-1", lineItems: [{ description: "x", quantity: 1, unitCents: 100 }], taxRate: 0 };

describe("the offline planner's skill recipes", () => {
  it("finds the skills a system prompt tells it to read, once each", () => {
    const system =
      "Skills:\n- a: one (read: cat .agents/skills/a/SKILL.md)\n- b-2: two (read: cat .agents/skills/b-2/SKILL.md)\nAgain .agents/skills/a/SKILL.md";
    expect(skillsNamedIn(system)).toEqual(["a", "b-2"]);
    expect(skillsNamedIn("Skills are under .agents/skills, memory under /mnt/memory.")).toEqual([]);
  });

  it("fills the recipe's slots from the task, writes each file's sha256 over its raw content, and the draft validates", async () => {
    const capabilities = await snapshotDefinition(invoiceTotals);
    const task = planTask(capabilities, INPUT);
    const lwir = draftFromSkills(invoiceTotalsRecipe.body, task) as {
      metadata: { name: string };
      input: { schema: unknown };
      permissions: { models: string[] };
      steps: {
        output: unknown;
        with: { files: Record<string, { content: string; sha256: string }> };
        onFailure: { fixer: { model: string } };
      }[];
    };
    expect(lwir.metadata.name).toBe("billing.invoice-totals");
    expect(lwir.input.schema).toEqual(task.inputSchema);
    expect(lwir.permissions.models).toEqual([task.workflowSnapshot.modelSlots[0]?.id]);
    const step = lwir.steps[0];
    expect(step?.output).toEqual(task.requestedOutput);
    expect(step?.onFailure.fixer.model).toBe(task.workflowSnapshot.modelSlots[0]?.id);
    const file = step?.with.files["totals.ts"];
    expect(file?.sha256).toBe(digestText(file?.content ?? ""));
    expect(file?.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(checkDraft(lwir, capabilities).filter((f) => f.severity === "error")).toEqual([]);
  });

  it("ignores fenced JSON that is not a Workflow document, and text without a draft", async () => {
    const task = planTask(await snapshotDefinition(invoiceTotals), INPUT);
    expect(draftFromSkills('```json\n{ "kind": "Example" }\n```\n```json\nnot json\n```', task)).toBeNull();
    expect(draftFromSkills("# Notes\nNo draft here.", task)).toBeNull();
  });

  it("writes code files byte for byte in bash, so sha256sum there agrees with the LWIR's sha256", async () => {
    const session = await new IsolateSandbox({ loader: env.LOADER }).openSession({ sessionId: "s", skills: [] });
    for (const content of [invoiceTotalsRecipe.body, "export const run = () => 1;", "EOF\nline\n\n"]) {
      const r = await session.exec(`${writeFileCommand("f.ts", content)}\nsha256sum f.ts`);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${digestText(content).slice("sha256:".length)}  f.ts\n`);
    }
  });
});
