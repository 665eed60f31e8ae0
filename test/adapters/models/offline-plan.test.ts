import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OfflineLanguageModel } from "../../../src/adapters/models/offline-model.ts";
import { offlinePlan } from "../../../src/adapters/models/offline-plan.ts";
import { billingRefund } from "../../../src/examples/billing-refund.ts";
import { summarizeTicket } from "../../../src/examples/support-summarize-ticket.ts";
import { planTask } from "../../../src/harness/planner-prompt.ts";
import { checkDraft } from "../../../src/harness/planner-session.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import { checkLwir } from "../../../src/lwir/check-lwir.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../../src/sdk/define-workflow.ts";
import { hasNoErrors } from "../../../src/sdk/finding.ts";
import { model } from "../../../src/sdk/model.ts";
import { type ToolRegistry, tool } from "../../../src/sdk/tool.ts";
import { SHIPPED, shippedTask } from "../../planner-corpus/tasks.ts";

const slot = model(new OfflineLanguageModel({ modelId: "offline-small" }), { description: "Offline." });
const base = {
  description: "Save a note and report it.",
  models: [slot],
  planner: { model: new OfflineLanguageModel({ modelId: "offline-planner" }), system: "Plan." },
} satisfies Partial<WorkflowDefinitionInput>;

const saveNote = tool({
  description: "Store a note.",
  inputSchema: z.object({ title: z.string(), text: z.string(), pinned: z.boolean().optional() }),
  outputSchema: z.object({ noteId: z.string(), length: z.number().int() }),
  execute: async ({ text }: { text: string }) => ({ noteId: "n1", length: text.length }),
});
const shareNote = tool({
  description: "Share a stored note.",
  inputSchema: z.object({ noteId: z.string() }),
  outputSchema: z.object({ url: z.string() }),
  execute: async ({ noteId }: { noteId: string }) => ({ url: `https://notes.test/${noteId}` }),
});
const deleteAccount = tool({
  description: "Needs an account id nothing gives.",
  inputSchema: z.object({ accountId: z.string() }),
  execute: async () => ({}),
});
const countWords = tool({
  description: "Takes a number where the input has a string.",
  inputSchema: z.object({ title: z.number() }),
  execute: async () => ({}),
});

type Step = { id: string; uses: string; needs: string[]; with: { tool?: string; input?: Record<string, string>; prompt?: string } };

async function planOf(definition: ReturnType<typeof defineWorkflow>, registry: ToolRegistry = {}, input: unknown = {}) {
  const capabilities = await snapshotDefinition(definition, registry);
  const lwir = offlinePlan(planTask(capabilities, input));
  return { lwir, steps: lwir.steps as Step[], errors: checkDraft(lwir, capabilities).filter((f) => f.severity === "error") };
}

describe("the offline planner plans with the definition's tools", () => {
  const notes = defineWorkflow({
    ...base,
    id: "notes.save",
    input: z.object({ title: z.string(), text: z.string() }),
    output: z.object({ noteId: z.string(), length: z.number(), url: z.string() }),
    tools: { saveNote, shareNote, deleteAccount, countWords },
  });

  it("calls each tool its required input can be fed to, from the run input or an earlier tool, then generates the output", async () => {
    const { steps, errors } = await planOf(notes);
    expect(errors).toEqual([]);
    expect(steps.map((s) => [s.id, s.uses, s.needs])).toEqual([
      ["save_note", "tool.call", []],
      ["share_note", "tool.call", ["save_note"]],
      ["generate", "ai.generate", ["save_note", "share_note"]],
    ]);
    expect(steps[0]?.with).toEqual({ tool: "saveNote", input: { title: "{{ input.title }}", text: "{{ input.text }}" } });
    expect(steps[1]?.with).toEqual({ tool: "shareNote", input: { noteId: "{{ steps.save_note.output.noteId }}" } });
    expect(steps[2]?.with.prompt).toContain("- saveNote: {{ json(steps.save_note.output) }}");
  });

  it("leaves out a tool nothing can feed, and one whose field has another type than the value it would get", async () => {
    const { lwir } = await planOf(notes);
    expect((lwir.permissions as { tools: string[] }).tools).toEqual(["saveNote", "shareNote"]);
  });

  it("feeds a tool only from fields that are always there (required), never from an optional input field", async () => {
    const wf = defineWorkflow({
      ...base,
      id: "notes.optional",
      input: z.object({ title: z.string(), text: z.string().optional() }),
      output: z.string(),
      tools: { saveNote },
    });
    const { lwir, errors } = await planOf(wf);
    expect(errors).toEqual([]);
    expect((lwir.permissions as { tools: string[] }).tools).toEqual([]);
  });

  it("is the same plan for every input (it reads schemas, never values)", async () => {
    const a = await planOf(notes, {}, { title: "a", text: "x" });
    const b = await planOf(notes, {}, { title: "b", text: "a longer text" });
    expect(a.lwir).toEqual(b.lwir);
  });

  it("plans a tool needing approval (billing.refund) and keeps a tool-less workflow's one-step plan", async () => {
    const refund = await planOf(billingRefund);
    expect(refund.errors).toEqual([]);
    expect(refund.steps[0]?.with).toEqual({
      tool: "billing.issue-refund",
      input: { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" },
    });
    const plain = await planOf(summarizeTicket);
    expect(plain.errors).toEqual([]);
    expect(plain.steps.map((s) => s.uses)).toEqual(["ai.generate"]);
  });

  it("permits the secrets the called tools declare, so they get them", async () => {
    const keyed = tool({
      description: "Posts a note to a service that needs a key.",
      inputSchema: z.object({ text: z.string() }),
      secrets: ["NOTES_KEY"],
      execute: async () => ({}),
    });
    const wf = defineWorkflow({
      ...base,
      id: "notes.keyed",
      input: z.object({ text: z.string() }),
      output: z.string(),
      tools: { keyed },
      secrets: ["NOTES_KEY", "OTHER_KEY"],
    });
    const { lwir, errors } = await planOf(wf);
    expect(errors).toEqual([]);
    expect((lwir.permissions as { secrets: string[] }).secrets).toEqual(["NOTES_KEY"]);
  });

  it("names tool steps validly and uniquely, whatever the tool ids", async () => {
    const wf = defineWorkflow({
      ...base,
      id: "notes.ids",
      input: z.object({ title: z.string(), text: z.string() }),
      output: z.string(),
      tools: { Generate: saveNote, "generate.now": saveNote },
    });
    const { steps, errors } = await planOf(wf);
    expect(errors).toEqual([]);
    expect(steps.map((s) => s.id)).toEqual(["generate_2", "generate_now", "generate"]);
  });
});

describe("the offline planner's plan against the validator (@2, required tools)", () => {
  it("is accepted for every shipped example", async () => {
    for (const id of SHIPPED) {
      const t = await shippedTask(id);
      const findings = checkLwir(offlinePlan(t.task), t.caps);
      expect(hasNoErrors(findings), `${id}: ${JSON.stringify(findings)}`).toBe(true);
    }
  });

  it("calls billing.refund's required refund tool before it answers", async () => {
    const t = await shippedTask("billing.refund");
    const plan = offlinePlan(t.task) as {
      steps: { id: string; uses: string; needs: string[]; with: { tool?: string; input?: unknown } }[];
    };
    const refund = plan.steps.find((s) => s.with.tool === "billing.issue-refund");
    expect(refund).toMatchObject({
      uses: "tool.call",
      with: { input: { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" } },
    });
    const answer = plan.steps.at(-1);
    expect(answer?.uses).toBe("ai.generate");
    expect(answer?.needs).toContain(refund?.id);
  });
});
