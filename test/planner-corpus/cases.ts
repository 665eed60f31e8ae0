// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus writes ${…} on purpose, as models do
import { digestText } from "../../src/json/digest.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { type Draft, digestFromFindings, edit, renameKey, step } from "./edit.ts";
import { CHUNK_SOURCE, type Json, summarizeFanOutPlan, type WorkflowId } from "./plans.ts";
import type { ShippedTask } from "./tasks.ts";

/** A finding the first draft must get: its code and path, and words of the fix its message must say. */
export type Expected = { readonly code: string; readonly path: string; readonly says?: readonly string[] };

/** One revision: the model's next draft from its last draft and the findings it was shown (only those). */
export type Repair = (draft: Draft, findings: readonly Finding[], t: ShippedTask) => unknown;

/**
 * One corpus transcript: the model's first draft of a shipped example's plan with one realistic
 * mistake, the findings that must point to the fix, and the repair the model makes from those
 * findings alone. `via` says how the model meets the findings when the transcript is replayed
 * through the real planner session: a rejected `submit_lwir`, or `lwir-check` in bash before
 * its first submission. Transcripts without `via` are checked with `checkLwir` and the
 * `submit_lwir` logic directly (corpus.test.ts).
 */
export type CorpusCase = {
  readonly id: string;
  readonly workflow: WorkflowId;
  /** The brief's mistake family. */
  readonly family: string;
  readonly mistake: string;
  /** The first draft, as submitted (an object, or a string for a model that sends text). */
  readonly draft: (t: ShippedTask) => unknown;
  /** Findings of the first draft that must point to the fix (a function when they name task values). */
  readonly expect: readonly Expected[] | ((t: ShippedTask) => readonly Expected[]);
  /** The first draft is valid (a variant that must be accepted); no repair. */
  readonly firstAccepted?: true;
  /** The revisions, in order, each from the findings of the draft before it; the last must be accepted. */
  readonly repairs?: readonly Repair[];
  /**
   * The validator does not catch this mistake yet: `expect` says what it should report, and the
   * test marks the gap as a known failure (it turns red when the gap is closed; then drop this).
   */
  readonly gap?: string;
  readonly via?: "submit" | "lwir-check";
};

const plan = (t: ShippedTask) => t.plan;
const at = (t: ShippedTask, change: (d: Draft) => void) => edit(plan(t), change);
const s0 = (d: Draft) => d.steps[0];

export const CORPUS: readonly CorpusCase[] = [
  // ── kind/type instead of uses ───────────────────────────────────────────────────────────
  {
    id: "kind-for-uses",
    workflow: "support.summarize-ticket",
    family: "kind/type instead of uses",
    mistake: 'The step says kind: "ai.generate" (the document has a top-level kind, so the model reuses the word).',
    draft: (t) => at(t, (d) => renameKey(s0(d), "uses", "kind")),
    expect: [
      { code: "field.unknown", path: "$.steps[0].kind", says: ['"uses"'] },
      { code: "field.required", path: "$.steps[0].uses" },
    ],
    repairs: [(d) => edit(d, (r) => renameKey(s0(r), "kind", "uses"))],
    via: "submit",
  },
  {
    id: "type-for-uses",
    workflow: "billing.refund",
    family: "kind/type instead of uses",
    mistake: 'The tool step says type: "tool.call".',
    draft: (t) => at(t, (d) => renameKey(s0(d), "uses", "type")),
    expect: [
      { code: "field.unknown", path: "$.steps[0].type", says: ['"uses"'] },
      { code: "field.required", path: "$.steps[0].uses" },
    ],
    repairs: [(d) => edit(d, (r) => renameKey(s0(r), "type", "uses"))],
  },
  {
    id: "type-for-uses-decision",
    workflow: "support.triage-inbox",
    family: "kind/type instead of uses",
    mistake: 'Only the decision step says type: "decision" (the model thought of it as a control node, not a step kind).',
    draft: (t) => at(t, (d) => renameKey(step(d, "route"), "uses", "type")),
    expect: [
      { code: "field.unknown", path: "$.steps[1].type", says: ['"uses"'] },
      { code: "field.required", path: "$.steps[1].uses" },
    ],
    repairs: [(d) => edit(d, (r) => renameKey(step(r, "route"), "type", "uses"))],
    via: "lwir-check",
  },
  // ── template delimiters ────────────────────────────────────────────────────────────────
  {
    id: "dollar-template",
    workflow: "support.summarize-ticket",
    family: "${input.x} instead of {{ input.x }}",
    mistake: "The prompt interpolates like a JavaScript template literal: ${input.transcript}.",
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.prompt = "Ticket ${input.ticketId}.\nTranscript:\n${input.transcript}\n\nSummarize and rate severity.";
      }),
    expect: [{ code: "template.wrong_delimiters", path: "$.steps[0].with.prompt", says: ["{{ input.ticketId }}"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).with.prompt = s0(r).with.prompt.replace(/\$\{([^}]+)\}/g, "{{ $1 }}");
        }),
    ],
    via: "submit",
  },
  {
    id: "single-brace-template",
    workflow: "support.triage-inbox",
    family: "{input.x} instead of {{ input.x }}",
    mistake: "The classify prompt uses single braces: {input.subject}.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "classify").with.prompt = "Is this urgent? Answer urgent or normal.\nSubject: {input.subject}\n{input.body}";
      }),
    expect: [{ code: "template.wrong_delimiters", path: "$.steps[0].with.prompt", says: ["{{ input.subject }}"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "classify").with.prompt = step(r, "classify").with.prompt.replace(/\{([^{}]+)\}/g, "{{ $1 }}");
        }),
    ],
  },
  {
    id: "triple-brace-template",
    workflow: "support.summarize-ticket",
    family: "{{{input.x}}} (Mustache unescaped) instead of {{ input.x }}",
    mistake: "The model writes Mustache's unescaped form {{{input.transcript}}}.",
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.prompt = "Ticket {{ input.ticketId }}.\nTranscript:\n{{{input.transcript}}}\nSummarize and rate severity.";
      }),
    expect: [{ code: "template.wrong_delimiters", path: "$.steps[0].with.prompt", says: ["{{ input.transcript }}"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).with.prompt = s0(r).with.prompt.replace("{{{input.transcript}}}", "{{ input.transcript }}");
        }),
    ],
  },
  {
    id: "no-space-template-is-valid",
    workflow: "support.summarize-ticket",
    family: "{{input.x}} spacing variant (valid)",
    mistake: "None: {{input.ticketId}} without spaces is valid template syntax and must be accepted as is.",
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.prompt = "Ticket {{input.ticketId}}.\nTranscript:\n{{input.transcript}}\nSummarize and rate severity.";
      }),
    expect: [],
    firstAccepted: true,
    via: "submit",
  },
  {
    id: "wide-space-template-is-valid",
    workflow: "support.triage-inbox",
    family: "{{input.x}} spacing variant (valid)",
    mistake: "None: {{   input.body   }} with extra spaces and {{input.from}} without are both valid.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "classify").with.prompt = "Urgent or normal?\nFrom: {{input.from}}\n{{   input.body   }}";
      }),
    expect: [],
    firstAccepted: true,
  },
  {
    id: "dollar-template-in-tool-input",
    workflow: "billing.refund",
    family: "${input.x} instead of {{ input.x }}",
    mistake: 'The tool input maps fields with "${input.orderId}".',
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.input = { orderId: "${input.orderId}", amountCents: "${input.amountCents}" };
      }),
    expect: [
      { code: "template.wrong_delimiters", path: "$.steps[0].with.input.orderId", says: ["{{ input.orderId }}"] },
      { code: "template.wrong_delimiters", path: "$.steps[0].with.input.amountCents", says: ["{{ input.amountCents }}"] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).with.input = { orderId: "{{ input.orderId }}", amountCents: "{{ input.amountCents }}" };
        }),
    ],
    via: "lwir-check",
  },
  {
    id: "filter-pipe-template",
    workflow: "support.triage-inbox",
    family: "template grammar (Jinja filters)",
    mistake: "The model writes a Jinja filter: {{ input.body | trim }}.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "classify").with.prompt = "Urgent or normal?\nSubject: {{ input.subject }}\n{{ input.body | trim }}";
      }),
    expect: [{ code: "template.syntax", path: "$.steps[0].with.prompt", says: ["Filters (a | f) are not supported: call f(a)"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "classify").with.prompt = step(r, "classify").with.prompt.replace("{{ input.body | trim }}", "{{ trim(input.body) }}");
        }),
    ],
  },
  // ── permissions ────────────────────────────────────────────────────────────────────────
  {
    id: "permissions-missing",
    workflow: "support.summarize-ticket",
    family: "missing permissions",
    mistake: "No permissions object at all (Example 1 was skimmed).",
    draft: (t) => at(t, (d) => delete d.permissions),
    expect: [
      { code: "field.required", path: "$.permissions", says: ['"models": [...], "tools": [...], "secrets": [...], "network": [...]'] },
      { code: "step.model_not_permitted", path: "$.steps[0].with.model", says: ["list it there"] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.permissions = { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] };
        }),
    ],
    via: "submit",
  },
  {
    id: "permissions-partial",
    workflow: "billing.refund",
    family: "missing permissions",
    mistake: "permissions lists only the tool; models, secrets and network are left out.",
    draft: (t) =>
      at(t, (d) => {
        d.permissions = { tools: ["billing.issue-refund"] };
      }),
    expect: [
      { code: "field.required", path: "$.permissions.models", says: ["use [] for none"] },
      { code: "field.required", path: "$.permissions.secrets", says: ["use [] for none"] },
      { code: "field.required", path: "$.permissions.network", says: ["use [] for none"] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.permissions = { models: [], tools: ["billing.issue-refund"], secrets: [], network: [] };
        }),
    ],
  },
  {
    id: "permissions-tool-not-listed",
    workflow: "billing.refund",
    family: "missing permissions",
    mistake: "permissions.tools is [] although the step calls billing.issue-refund.",
    draft: (t) =>
      at(t, (d) => {
        d.permissions.tools = [];
      }),
    expect: [{ code: "step.tool_not_permitted", path: "$.steps[0].with.tool", says: ["permissions.tools"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.permissions.tools = ["billing.issue-refund"];
        }),
    ],
  },
  {
    id: "permissions-model-not-listed",
    workflow: "support.triage-inbox",
    family: "missing permissions",
    mistake: "permissions.models is [] although every ai.generate step uses gpt-4o-mini.",
    draft: (t) =>
      at(t, (d) => {
        d.permissions.models = [];
      }),
    expect: [{ code: "step.model_not_permitted", path: "$.steps[0].with.model", says: ["permissions.models"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.permissions.models = ["gpt-4o-mini"];
        }),
    ],
    via: "lwir-check",
  },
  // ── slot ids ───────────────────────────────────────────────────────────────────────────
  {
    id: "unknown-slot-gpt-4o",
    workflow: "support.summarize-ticket",
    family: "unknown slot id",
    mistake: 'The model writes "gpt-4o" (a model it knows) instead of a slot of the task.',
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.model = "gpt-4o";
        d.permissions.models = ["gpt-4o"];
      }),
    expect: [
      { code: "binding.model_not_in_snapshot", path: "$.permissions.models[0]", says: ["gpt-4o-mini"] },
      { code: "binding.step_model_not_allowed", path: "$.steps[0].with.model" },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).with.model = "gpt-4o-mini";
          r.permissions.models = ["gpt-4o-mini"];
        }),
    ],
    via: "submit",
  },
  {
    id: "unknown-slot-provider-prefix",
    workflow: "support.triage-inbox",
    family: "unknown slot id",
    mistake: 'Slots written as provider:model ("openai:gpt-4o-mini"), as in LITTLE_MODEL_<SLOT> config.',
    draft: (t) =>
      at(t, (d) => {
        for (const s of d.steps) if (s.with.model) s.with.model = "openai:gpt-4o-mini";
        d.permissions.models = ["openai:gpt-4o-mini"];
      }),
    expect: [
      { code: "binding.model_not_in_snapshot", path: "$.permissions.models[0]", says: ["gpt-4o-mini"] },
      { code: "binding.step_model_not_allowed", path: "$.steps[0].with.model" },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          for (const s of r.steps) if (s.with.model) s.with.model = "gpt-4o-mini";
          r.permissions.models = ["gpt-4o-mini"];
        }),
    ],
  },
  {
    id: "fixer-on-planner-model",
    workflow: "billing.invoice-totals",
    family: "unknown slot id",
    mistake: 'The fixer gets the planner\'s own model "gpt-5", which is not an execution slot of this workflow.',
    draft: (t) =>
      at(t, (d) => {
        s0(d).onFailure.fixer.model = "gpt-5";
        d.permissions.models = ["gpt-5"];
      }),
    expect: [
      { code: "binding.model_not_in_snapshot", path: "$.permissions.models[0]", says: ["gpt-4o-mini"] },
      { code: "binding.step_model_not_allowed", path: "$.steps[0].onFailure.fixer.model" },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).onFailure.fixer.model = "gpt-4o-mini";
          r.permissions.models = ["gpt-4o-mini"];
        }),
    ],
    via: "lwir-check",
  },
  // ── code.run file hash ─────────────────────────────────────────────────────────────────
  {
    id: "hash-of-echo-output",
    workflow: "billing.invoice-totals",
    family: "wrong code.run file hash",
    mistake: "The model hashed the file as echo wrote it (one extra trailing newline), not the content it submits.",
    draft: (t) =>
      at(t, (d) => {
        const file = s0(d).with.files["totals.ts"];
        file.sha256 = digestText(`${file.content}\n`);
      }),
    expect: (t) => [
      {
        code: "code.file_digest_mismatch",
        path: '$.steps[0].with.files["totals.ts"].sha256',
        says: [`set "sha256": "${digestText((t.plan as Draft).steps[0].with.files["totals.ts"].content)}"`],
      },
    ],
    repairs: [
      (d, findings) =>
        edit(d, (r) => {
          r.steps[0].with.files["totals.ts"].sha256 = digestFromFindings(findings, "totals.ts");
        }),
    ],
    via: "submit",
  },
  {
    id: "hash-placeholder-left",
    workflow: "billing.invoice-totals",
    family: "wrong code.run file hash",
    mistake: 'The skill draft\'s "<sha256 of the content>" placeholder was left in.',
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.files["totals.ts"].sha256 = "<sha256 of the content>";
      }),
    expect: (t) => [
      {
        code: "code.invalid_digest",
        path: '$.steps[0].with.files["totals.ts"].sha256',
        says: [digestText((t.plan as Draft).steps[0].with.files["totals.ts"].content)],
      },
    ],
    repairs: [
      (d, findings) =>
        edit(d, (r) => {
          r.steps[0].with.files["totals.ts"].sha256 = digestFromFindings(findings, "totals.ts");
        }),
    ],
  },
  {
    id: "hash-without-prefix",
    workflow: "support.triage-inbox",
    family: "wrong code.run file hash",
    mistake: 'The join file\'s sha256 is the bare hex of sha256sum, without "sha256:".',
    draft: (t) =>
      at(t, (d) => {
        const file = step(d, "pick").with.files["pick.ts"];
        file.sha256 = file.sha256.slice("sha256:".length);
      }),
    expect: [{ code: "code.invalid_digest", path: '$.steps[4].with.files["pick.ts"].sha256', says: ['"sha256:" followed by 64'] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          const file = step(r, "pick").with.files["pick.ts"];
          file.sha256 = `sha256:${file.sha256}`;
        }),
    ],
  },
  {
    id: "hash-of-edited-file",
    workflow: "support.summarize-ticket",
    family: "wrong code.run file hash",
    mistake: "The chunk size was edited in the JSON after sha256sum ran, so the digest is of the old content.",
    draft: (t) =>
      edit(summarizeFanOutPlan(t.task), (d) => {
        d.steps[0].with.files["chunk.ts"].content = CHUNK_SOURCE.replace("4000", "3000");
      }),
    expect: [
      {
        code: "code.file_digest_mismatch",
        path: '$.steps[0].with.files["chunk.ts"].sha256',
        says: [`set "sha256": "${digestText(CHUNK_SOURCE.replace("4000", "3000"))}"`],
      },
    ],
    repairs: [
      (d, findings) =>
        edit(d, (r) => {
          r.steps[0].with.files["chunk.ts"].sha256 = digestFromFindings(findings, "chunk.ts");
        }),
    ],
  },
  // ── steps as an object ─────────────────────────────────────────────────────────────────
  {
    id: "steps-keyed-by-id",
    workflow: "support.summarize-ticket",
    family: "steps as an object keyed by id",
    mistake: "steps is { summarize: { uses, … } } (a GitHub Actions habit).",
    draft: (t) =>
      at(t, (d) => {
        const { id, ...rest } = s0(d);
        d.steps = { [id]: rest };
      }),
    expect: [{ code: "field.invalid_type", path: "$.steps", says: ["must be a list", "each key as the step's id"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.steps = Object.entries(r.steps).map(([id, s]) => ({ id, ...(s as Json) }));
        }),
    ],
    via: "submit",
  },
  {
    id: "steps-keyed-by-id-branching",
    workflow: "support.triage-inbox",
    family: "steps as an object keyed by id",
    mistake: "All five triage steps keyed by id, each still carrying its id.",
    draft: (t) =>
      at(t, (d) => {
        d.steps = Object.fromEntries(d.steps.map((s: Json) => [s.id, s]));
      }),
    expect: [{ code: "field.invalid_type", path: "$.steps", says: ["must be a list", "each key as the step's id"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.steps = Object.values(r.steps);
        }),
    ],
  },
  // ── output mode in the wrong place ─────────────────────────────────────────────────────
  {
    id: "output-inside-with",
    workflow: "support.summarize-ticket",
    family: "output mode in the wrong place",
    mistake: "The output mode sits inside with (next to model and prompt), as generateText takes it.",
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.output = s0(d).output;
        delete s0(d).output;
      }),
    expect: [
      { code: "field.unknown", path: "$.steps[0].with.output", says: ["belongs on the step itself ($.steps[0].output)"] },
      { code: "field.required", path: "$.steps[0].output" },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).output = s0(r).with.output;
          delete s0(r).with.output;
        }),
    ],
    via: "submit",
  },
  {
    id: "output-as-string",
    workflow: "support.triage-inbox",
    family: "output mode in the wrong place",
    mistake: 'The classify step says output: "choice" (the mode alone) with the values nowhere.',
    draft: (t) =>
      at(t, (d) => {
        step(d, "classify").output = "choice";
      }),
    expect: [{ code: "field.invalid_type", path: "$.steps[0].output", says: ['{ "mode": "choice"'] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "classify").output = { mode: "choice", values: ["urgent", "normal"] };
        }),
    ],
    via: "lwir-check",
  },
  {
    id: "output-text-string",
    workflow: "support.summarize-ticket",
    family: "output mode in the wrong place",
    mistake: 'The notes fan-out step says output: "text".',
    draft: (t) =>
      edit(summarizeFanOutPlan(t.task), (d) => {
        d.steps[1].output = "text";
      }),
    expect: [{ code: "field.invalid_type", path: "$.steps[1].output", says: ['{ "mode": "text" }'] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.steps[1].output = { mode: "text" };
        }),
    ],
  },
  {
    id: "output-schema-without-mode",
    workflow: "billing.refund",
    family: "output mode in the wrong place",
    mistake: "The terminal step's output is the output schema itself, not requestedOutput ({ mode, schema }).",
    draft: (t) =>
      at(t, (d) => {
        s0(d).output = t.task.outputSchema;
      }),
    expect: [{ code: "output.unknown_mode", path: "$.steps[0].output.mode", says: ['wrap it as { "mode": "object", "schema"'] }],
    repairs: [
      // The finding says only to use "mode": the model renames type → mode first…
      (d) => edit(d, (r) => renameKey(s0(r).output, "type", "mode")),
      // …then "does not take properties/required/…" and "needs a schema": it wraps the schema.
      (d) =>
        edit(d, (r) => {
          const { mode, ...schema } = s0(r).output;
          s0(r).output = { mode, schema: { type: mode, ...schema } };
        }),
    ],
  },
  {
    id: "tool-output-json-copied-from-example",
    workflow: "billing.refund",
    family: "output mode in the wrong place",
    mistake: 'The tool step copies Example 2\'s output { "mode": "json" }, but it is the terminal step.',
    draft: (t) =>
      at(t, (d) => {
        s0(d).output = { mode: "json" };
      }),
    // Valid: a json terminal output is still checked against the output schema when the run ends
    // (a finding here, even a warning, would change the lock of versions compiled before it).
    firstAccepted: true,
    expect: [],
    repairs: [
      (d, _f, t) =>
        edit(d, (r) => {
          s0(r).output = t.task.requestedOutput;
        }),
    ],
  },
  // ── text around the JSON ───────────────────────────────────────────────────────────────
  {
    id: "prose-around-json",
    workflow: "support.summarize-ticket",
    family: "extra prose around the JSON",
    mistake: "lwir is a string: a sentence, then the document in a ```json fence, then a closing remark.",
    draft: (t) =>
      `Here is the LWIR plan for the task:\n\`\`\`json\n${JSON.stringify(plan(t), null, 2)}\n\`\`\`\nLet me know if you need changes.`,
    expect: [{ code: "submission.text_around_json", path: "$", says: ["Submit the object alone"] }],
    firstAccepted: true,
    via: "submit",
  },
  {
    id: "json-string",
    workflow: "billing.refund",
    family: "extra prose around the JSON",
    mistake: "lwir is the document serialized as a JSON string (no prose).",
    draft: (t) => JSON.stringify(plan(t)),
    // Accepted silently: parseDraft warns only when there is text around the JSON, not for a string.
    expect: [],
    firstAccepted: true,
  },
  {
    id: "truncated-json-string",
    workflow: "support.triage-inbox",
    family: "extra prose around the JSON",
    mistake: "lwir is a string whose JSON was cut off (the model ran out of output tokens mid-document).",
    draft: (t) => JSON.stringify(plan(t)).slice(0, 600),
    expect: [{ code: "submission.not_json", path: "$", says: ['submit_lwir({ "lwir": { "apiVersion"'] }],
    repairs: [(_d, _f, t) => plan(t)],
  },
  // ── tool.call ──────────────────────────────────────────────────────────────────────────
  {
    id: "tool-id-and-args",
    workflow: "billing.refund",
    family: "toolId/args for tool.call",
    mistake: "with: { toolId, args } (the names of another agent framework).",
    draft: (t) =>
      at(t, (d) => {
        s0(d).with = { toolId: "billing.issue-refund", args: s0(d).with.input };
      }),
    expect: [
      { code: "field.unknown", path: "$.steps[0].with.toolId", says: ['"tool"'] },
      { code: "field.unknown", path: "$.steps[0].with.args", says: ['"input"'] },
      { code: "field.required", path: "$.steps[0].with.tool", says: ["billing.issue-refund"] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          renameKey(s0(r).with, "toolId", "tool");
          renameKey(s0(r).with, "args", "input");
        }),
    ],
    via: "submit",
  },
  {
    id: "uses-tool-id",
    workflow: "billing.refund",
    family: 'uses: "<tool id>"',
    mistake: 'uses: "billing.issue-refund", with holding the tool\'s arguments directly.',
    draft: (t) =>
      at(t, (d) => {
        s0(d).uses = "billing.issue-refund";
        s0(d).with = s0(d).with.input;
      }),
    expect: [
      {
        code: "step.unknown_kind",
        path: "$.steps[0].uses",
        says: ['"uses": "tool.call"', '"with": { "tool": "billing.issue-refund", "input": {…} }'],
      },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          const args = s0(r).with;
          s0(r).uses = "tool.call";
          s0(r).with = { tool: "billing.issue-refund", input: args };
        }),
    ],
    via: "lwir-check",
  },
  {
    id: "tool-input-wrong-field",
    workflow: "billing.refund",
    family: "tool.call input",
    mistake: "The tool input says amount (from the workflow's description), not amountCents.",
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.input = { orderId: "{{ input.orderId }}", amount: "{{ input.amountCents }}" };
      }),
    expect: [{ code: "binding.tool_input_mismatch", path: "$.steps[0].with.input", says: ["amountCents"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          renameKey(s0(r).with.input, "amount", "amountCents");
        }),
    ],
  },
  // ── decisions ──────────────────────────────────────────────────────────────────────────
  {
    id: "case-without-step",
    workflow: "support.triage-inbox",
    family: "a decision case without step",
    mistake: 'The case says then: "urgent" instead of step.',
    draft: (t) =>
      at(t, (d) => {
        renameKey(step(d, "route").with.cases[0], "step", "then");
      }),
    expect: [
      { code: "field.unknown", path: "$.steps[1].with.cases[0].then", says: ['"step"'] },
      { code: "field.required", path: "$.steps[1].with.cases[0].step" },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          renameKey(step(r, "route").with.cases[0], "then", "step");
        }),
    ],
    via: "submit",
  },
  {
    id: "cases-keyed-by-target",
    workflow: "support.triage-inbox",
    family: "a decision case without step",
    mistake: 'cases is an object from target step to condition: { urgent: "{{ … }}" }.',
    draft: (t) =>
      at(t, (d) => {
        const route = step(d, "route");
        route.with.cases = { urgent: route.with.cases[0].when };
      }),
    expect: [
      { code: "decision.invalid_cases", path: "$.steps[1].with.cases", says: ['list of { "when": "{{ … }}", "step": "<step id>" }'] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          const route = step(r, "route");
          route.with.cases = Object.entries(route.with.cases).map(([target, when]) => ({ when, step: target }));
        }),
    ],
  },
  {
    id: "when-with-operator",
    workflow: "support.triage-inbox",
    family: "a decision's when",
    mistake: 'The when uses an operator: {{ steps.classify.output == "urgent" }}.',
    draft: (t) =>
      at(t, (d) => {
        step(d, "route").with.cases[0].when = '{{ steps.classify.output == "urgent" }}';
      }),
    expect: [{ code: "decision.invalid_when", path: "$.steps[1].with.cases[0].when", says: ['{{ eq(steps.classify.output, "urgent") }}'] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "route").with.cases[0].when = '{{ eq(steps.classify.output, "urgent") }}';
        }),
    ],
  },
  {
    id: "decision-target-without-needs",
    workflow: "support.triage-inbox",
    family: "a decision's targets",
    mistake: "The branches need classify (whose output they think they read) instead of the decision.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "urgent").needs = ["classify"];
        step(d, "normal").needs = ["classify"];
      }),
    expect: [
      { code: "decision.target_not_dependent", path: "$.steps[1].with.cases[0].step", says: ['"route"'] },
      { code: "decision.target_not_dependent", path: "$.steps[1].with.default", says: ['"route"'] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "urgent").needs = ["route"];
          step(r, "normal").needs = ["route"];
        }),
    ],
    via: "lwir-check",
  },
  {
    id: "join-without-default",
    workflow: "support.triage-inbox",
    family: "a join reading a skipped branch without default",
    mistake: "The join reads both branches as they are; one of them is always skipped.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "pick").with.input = { urgent: "{{ steps.urgent.output }}", normal: "{{ steps.normal.output }}" };
      }),
    expect: [{ code: "template.skipped_branch", path: "$.steps[4].with.input.urgent", says: ["default("] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "pick").with.input = "{{ default(steps.urgent.output, steps.normal.output) }}";
        }),
    ],
  },
  // ── template types (validator @2) ─────────────────────────────────────────────────────
  {
    id: "amount-with-unit-text",
    workflow: "billing.refund",
    family: "text around an expression into a typed tool field",
    mistake:
      'The refund amount is written "{{ input.amountCents }} cents": text around an expression makes a string, and the tool takes an integer.',
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.input.amountCents = "{{ input.amountCents }} cents";
      }),
    expect: [
      {
        code: "template.type_mismatch",
        path: "$.steps[0].with.input.amountCents",
        says: ["integer", 'write exactly "{{ input.amountCents }}"'],
      },
    ],
    repairs: [
      (d, findings) =>
        edit(d, (r) => {
          const f = findings.find((x) => x.code === "template.type_mismatch");
          s0(r).with.input.amountCents = /write exactly "([^"]+)"/.exec(f?.message ?? "")?.[1];
        }),
    ],
    via: "submit",
  },
  {
    id: "field-of-a-choice",
    workflow: "support.triage-inbox",
    family: "a field the schema it reads does not have",
    mistake: "The urgent draft reads steps.classify.output.label, but a choice output is the chosen string itself.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "urgent").with.prompt = `Label: {{ steps.classify.output.label }}\n${step(d, "urgent").with.prompt}`;
      }),
    expect: [{ code: "template.unknown_field", path: "$.steps[2].with.prompt", says: ['"urgent" | "normal"', 'no field "label"'] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "urgent").with.prompt = step(r, "urgent").with.prompt.replace("steps.classify.output.label", "steps.classify.output");
        }),
    ],
    via: "lwir-check",
  },
  {
    id: "join-default-misses-branch",
    workflow: "support.triage-inbox",
    family: "a join's default() that leaves a branch out",
    mistake: "A third branch (spam) is added, but the join's default() still names only the first two, so it is missing when spam ran.",
    draft: (t) =>
      at(t, (d) => {
        step(d, "classify").output.values = ["urgent", "normal", "spam"];
        step(d, "route").with.cases.push({ when: '{{ eq(steps.classify.output, "normal") }}', step: "normal" });
        step(d, "route").with.default = "spam";
        const spam = JSON.parse(JSON.stringify(step(d, "normal")));
        spam.id = "spam";
        spam.with.prompt = `This message is probably spam: priority is low; the reply asks the sender to confirm.\n${spam.with.prompt}`;
        d.steps.splice(4, 0, spam);
        step(d, "pick").needs = ["urgent", "normal", "spam"];
      }),
    expect: [{ code: "template.may_be_null", path: "$.steps[5].with.input", says: ['"spam"', "default(", "steps.spam"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          step(r, "pick").with.input = "{{ default(default(steps.urgent.output, steps.normal.output), steps.spam.output) }}";
        }),
    ],
    via: "submit",
  },
  {
    id: "refund-without-the-tool",
    workflow: "billing.refund",
    family: "a required tool the plan never calls",
    mistake: "The model answers the refund with one ai.generate step (the smallest plan it knows): no tool call, a made-up refund id.",
    draft: (t) =>
      at(t, (d) => {
        const slot = t.task.workflowSnapshot.modelSlots[0]?.id as string;
        d.permissions.models = [slot];
        d.permissions.tools = [];
        d.steps = [
          {
            id: "answer",
            uses: "ai.generate",
            needs: [],
            with: { model: slot, prompt: "Refund order {{ input.orderId }} ({{ input.amountCents }} cents): {{ input.reason }}" },
            output: s0(d).output,
          },
        ];
      }),
    expect: [{ code: "binding.required_tool_not_called", path: "$.steps", says: ['"billing.issue-refund"', '"uses": "tool.call"'] }],
    repairs: [(_d, _findings, t) => t.plan],
    via: "submit",
  },
  // ── metadata ───────────────────────────────────────────────────────────────────────────
  {
    id: "metadata-version-missing",
    workflow: "support.summarize-ticket",
    family: "missing metadata.version",
    mistake: "metadata has only name and description.",
    draft: (t) => at(t, (d) => delete d.metadata.version),
    expect: [{ code: "field.required", path: "$.metadata.version", says: ['"0.1.0"'] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.metadata = { name: r.metadata.name, version: "0.1.0", description: r.metadata.description };
        }),
    ],
    via: "submit",
  },
  {
    id: "metadata-version-number",
    workflow: "billing.invoice-totals",
    family: "missing metadata.version",
    mistake: "metadata.version is the number 1.",
    draft: (t) =>
      at(t, (d) => {
        d.metadata.version = 1;
      }),
    // The message says only "a non-empty string" (not the format); the prompt's Rules give "0.1.0".
    expect: [{ code: "field.invalid_type", path: "$.metadata.version", says: ["string"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.metadata.version = "0.1.0";
        }),
    ],
  },
  // ── fan-out ────────────────────────────────────────────────────────────────────────────
  {
    id: "fan-out-items-with-text",
    workflow: "support.summarize-ticket",
    family: "a fan-out items with text around the expression",
    mistake: 'forEach.items is "chunks: {{ steps.chunk.output.chunks }}" (a label left in).',
    draft: (t) =>
      edit(summarizeFanOutPlan(t.task), (d) => {
        d.steps[1].forEach.items = "chunks: {{ steps.chunk.output.chunks }}";
      }),
    expect: [{ code: "fanout.invalid_items", path: "$.steps[1].forEach.items", says: ["exactly one {{ … }} expression"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.steps[1].forEach.items = "{{ steps.chunk.output.chunks }}";
        }),
    ],
    via: "submit",
  },
  {
    id: "fan-out-item-without-for-each",
    workflow: "support.summarize-ticket",
    family: "a fan-out items with text around the expression",
    mistake: "forEach was put inside with, so {{ item }} is read outside a fan-out.",
    draft: (t) =>
      edit(summarizeFanOutPlan(t.task), (d) => {
        d.steps[1].with.forEach = d.steps[1].forEach;
        delete d.steps[1].forEach;
      }),
    expect: [
      // Unlike with.output, the message does not say forEach belongs on the step; the second finding does.
      { code: "field.unknown", path: "$.steps[1].with.forEach" },
      { code: "template.item_outside_fan_out", path: "$.steps[1].with.prompt", says: ["inside a step with forEach"] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.steps[1].forEach = r.steps[1].with.forEach;
          delete r.steps[1].with.forEach;
        }),
    ],
  },
  // ── code.run with ──────────────────────────────────────────────────────────────────────
  {
    id: "code-inline-source",
    workflow: "billing.invoice-totals",
    family: "code.run with",
    mistake: "with: { language, code } (one inline source) instead of entrypoint + files.",
    draft: (t) =>
      at(t, (d) => {
        const w = s0(d).with;
        s0(d).with = { language: "typescript", code: w.files["totals.ts"].content, sandbox: w.sandbox };
      }),
    expect: [
      { code: "field.unknown", path: "$.steps[0].with.code" },
      { code: "field.required", path: "$.steps[0].with.entrypoint" },
      { code: "field.required", path: "$.steps[0].with.files", says: ['"content"', '"sha256": "sha256:<hex of the content>"'] },
    ],
    repairs: [
      (d) =>
        edit(d, (r) => {
          const w = s0(r).with;
          s0(r).with = {
            entrypoint: "totals.ts",
            files: { "totals.ts": { content: w.code, sha256: digestText(w.code) } },
            sandbox: w.sandbox,
          };
        }),
    ],
  },
  {
    id: "sandbox-as-string",
    workflow: "billing.invoice-totals",
    family: "code.run with",
    mistake: 'sandbox: "deny" (one word for the whole policy).',
    draft: (t) =>
      at(t, (d) => {
        s0(d).with.sandbox = "deny";
      }),
    // The message says only "must be an object"; the shape is in the field reference (sandbox: { network, env, fs }).
    expect: [{ code: "field.invalid_type", path: "$.steps[0].with.sandbox", says: ["must be an object"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          s0(r).with.sandbox = { network: "deny", env: "deny", fs: "deny" };
        }),
    ],
  },
  // ── graph ──────────────────────────────────────────────────────────────────────────────
  {
    id: "two-terminals-no-join",
    workflow: "support.triage-inbox",
    family: "graph",
    mistake: "No join: both drafting branches end the workflow.",
    draft: (t) =>
      at(t, (d) => {
        d.steps = d.steps.filter((s: Json) => s.id !== "pick");
      }),
    expect: [{ code: "graph.multiple_terminals", path: "$.steps", says: ['"urgent", "normal"', "exactly one"] }],
    repairs: [(_d, _f, t) => plan(t)],
  },
  {
    id: "needs-as-string",
    workflow: "support.summarize-ticket",
    family: "graph",
    mistake: 'needs: "chunk" (a string, not a list).',
    draft: (t) =>
      edit(summarizeFanOutPlan(t.task), (d) => {
        d.steps[1].needs = "chunk";
      }),
    expect: [{ code: "field.invalid_type", path: "$.steps[1].needs", says: ["list of step ids"] }],
    repairs: [
      (d) =>
        edit(d, (r) => {
          r.steps[1].needs = [r.steps[1].needs];
        }),
    ],
  },
];
