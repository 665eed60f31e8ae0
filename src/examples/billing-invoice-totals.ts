import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";
import { skill } from "../sdk/skill.ts";

/**
 * The code the recipe ships, with a bug on purpose: it reads `input.lineitems`, but the field is
 * `lineItems`. The first run throws a TypeError, the step's fixer session repairs it, and the step
 * succeeds on the retry — a repair you can watch in the event log (`npm run demo`). With the
 * offline model the repair comes from its repertoire (`input-field-name`).
 */
export const INVOICE_TOTALS_SOURCE = `type LineItem = { description: string; quantity: number; unitCents: number };
type Invoice = { invoiceId: string; lineItems: LineItem[]; taxRate: number };

export async function run({ input }: { input: Invoice }) {
  const subtotalCents = input.lineitems.reduce((sum: number, item: LineItem) => sum + item.quantity * item.unitCents, 0);
  const taxCents = Math.round(subtotalCents * input.taxRate);
  return { invoiceId: input.invoiceId, subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}
`;

/**
 * The plan recipe, a ```json LWIR draft with placeholders in angle brackets: one code.run step that
 * totals the invoice, with a fixer on failure. The planner fills the placeholders from its task and
 * writes each file's sha256 (`sha256:` and the hex of `sha256sum` of the content).
 */
const INVOICE_TOTALS_DRAFT = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "<workflow-id>", version: "0.1.0", description: "Total an invoice with code; a fixer repairs the code if it fails." },
  input: { schema: "<input-schema>" },
  output: { schema: "<output-schema>" },
  permissions: { models: ["<model-slot>"], tools: [], secrets: [], network: [] },
  steps: [
    {
      id: "totals",
      uses: "code.run",
      needs: [],
      with: {
        entrypoint: "totals.ts",
        files: { "totals.ts": { content: INVOICE_TOTALS_SOURCE, sha256: "<sha256 of the content>" } },
        sandbox: { network: "deny", env: "deny", fs: "deny" },
      },
      output: "<requested-output>",
      onFailure: {
        fixer: {
          model: "<model-slot>",
          maxAttempts: 2,
          system: "Repair totals.ts so that run({ input }) returns the invoice totals in cents matching the output schema.",
        },
      },
    },
  ],
};

export const invoiceTotalsRecipe = skill({
  name: "invoice-totals-plan",
  description: "The plan for billing.invoice-totals: one code.run step with a fixer. Read it before drafting.",
  body: `# Plan: invoice totals

Total the invoice in code (no model needed for arithmetic), and let a fixer repair the code if it
fails. Use this draft; fill the placeholders from your task:

- \`<workflow-id>\`: workflowSnapshot.id
- \`<input-schema>\` / \`<output-schema>\`: the task's inputSchema / outputSchema
- \`<requested-output>\`: the task's requestedOutput (the terminal step's output mode)
- \`<model-slot>\`: the id of the workflow's model slot (workflowSnapshot.modelSlots[0].id)
- each file's \`sha256\`: \`sha256:\` followed by the hex digest of its content (\`sha256sum\`)

The code.run step gets the run input as \`input\` (no \`with.input\` needed).

\`\`\`json
${JSON.stringify(INVOICE_TOTALS_DRAFT, null, 2)}
\`\`\`
`,
});

/**
 * Invoice totals computed by code. Its planner skill carries the plan; the shipped code fails
 * once and the step's fixer repairs it (`docs/sandbox.md`, "When code fails: the fixer").
 */
export const invoiceTotals = defineWorkflow({
  id: "billing.invoice-totals",
  description: "Total an invoice: subtotal, tax and total in cents, computed by code.",
  input: z.object({
    invoiceId: z.string(),
    lineItems: z.array(z.object({ description: z.string(), quantity: z.number().int().positive(), unitCents: z.number().int() })),
    taxRate: z.number().min(0).max(1),
  }),
  output: z.object({ invoiceId: z.string(), subtotalCents: z.number().int(), taxCents: z.number().int(), totalCents: z.number().int() }),
  models: [model(openai("gpt-4o-mini"), { description: "Repairs code.run bodies that fail." })],
  planner: {
    model: openai("gpt-5"),
    system: "You design billing workflows. Compute money with code.run, never with a model.",
    skills: [invoiceTotalsRecipe],
  },
});
