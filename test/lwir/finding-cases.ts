/**
 * One small mutation of a valid LWIR document per finding code (shared by the validator's tests
 * and the JSON Schema's agreement test).
 */
import { MAX_CANONICAL_DEPTH } from "../../src/json/canonical-json.ts";
import type { LwirFindingCode } from "../../src/lwir/finding-codes.ts";
import { MAX_LWIR_BYTES, MAX_STEPS } from "../../src/lwir/validate-lwir.ts";
import {
  aiStep,
  boundSeedLwir,
  chainLwir,
  computeScoreStep,
  get,
  type JsonObject,
  remove,
  SCORE_TS_SHA256,
  seedLwir,
  seedWithComputeScore,
  seedWithSteps,
  set,
  withCall,
} from "./fixtures.ts";

export type Located = { code: string; path: string };

/** `input.schema.properties.deep` nested `levels` objects down. */
export function deepInputSchema(levels: number): JsonObject {
  let deep: JsonObject = {};
  for (let i = 0; i < levels; i++) deep = { a: deep };
  const doc = seedLwir();
  set(doc, ["input", "schema", "properties", "deep"], deep);
  return doc;
}

// $ (0) › input (1) › schema (2) › properties (3) › deep (4) › a… — the object at depth 512 is refused.
export const DEPTH_OF_DEEP = 4;
export const TOO_DEEP_A_COUNT = MAX_CANONICAL_DEPTH - DEPTH_OF_DEEP;

export type Case = {
  readonly code: LwirFindingCode;
  readonly title: string;
  readonly build: () => unknown;
  /** The exact JSONPath of the finding. */
  readonly path: string;
  /** Other findings the same mutation must (and may only) produce. */
  readonly also?: readonly Located[];
  /** binding.* cases: bind against the example plus the `crm.lookup` tool instead of the example alone. */
  readonly withLookupTool?: true;
  /** Bound against the lookup workflow with `requiredTools: ["crm.lookup"]`. */
  readonly requiresLookup?: true;
  /** Bound against the example declaring the callee `crm.refund` (fixtures.ts). */
  readonly withCallee?: true;
  /** Found by the type pass (validator `@2`): the document is valid LWIR on its own; `checkLwir` finds it. */
  readonly typed?: true;
};

/** The bound seed with a `crm.lookup` tool step before `summarize` taking `input` (and the steps before it). */
function withLookup(input: Record<string, unknown>, before: unknown[] = [], lookupNeeds: string[] = []): JsonObject {
  const doc = set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]);
  const summarize = get(doc, ["steps", 0]) as JsonObject;
  const lookup = { id: "lookup", uses: "tool.call", needs: lookupNeeds, with: { tool: "crm.lookup", input }, output: { mode: "json" } };
  doc.steps = [...before, lookup, { ...summarize, needs: ["lookup"] }];
  return doc;
}

/** A decision with three branches (a, b, c), each a text step. */
function threeBranches(): unknown[] {
  const branch = (id: string) => ({
    ...aiStep(id, ["route"]),
    with: { model: "gpt-4o-mini", prompt: `Branch ${id}: {{ input.ticketId }}` },
  });
  return [
    {
      id: "route",
      uses: "decision",
      with: {
        cases: [
          { when: '{{ eq(input.ticketId, "a") }}', step: "a" },
          { when: '{{ eq(input.ticketId, "b") }}', step: "b" },
        ],
        default: "c",
      },
    },
    branch("a"),
    branch("b"),
    branch("c"),
  ];
}

export const summarize = ["steps", 0] as const;
export const score = ["steps", 0] as const; // in seedWithComputeScore(), compute-score is steps[0]
export const fixer = [...score, "onFailure", "fixer"] as const;
export const scoreFile = [...score, "with", "files", "score.ts"] as const;

export const withPrompt = (prompt: string) => set(seedLwir(), [...summarize, "with", "prompt"], prompt);

/**
 * One small mutation of a valid seed document per finding code. binding.* cases run through
 * bindLwir (against the example definition) on a document that is structurally valid.
 */
/** The seed with a decision step "route" that summarize needs. */
export function withDecision(w: Record<string, unknown>): JsonObject {
  const doc = seedLwir();
  (doc.steps as unknown[]).unshift({ id: "route", uses: "decision", needs: [], with: w });
  return set(doc, ["steps", 1, "needs"], ["route"]);
}

/** The seed's summarize step after a wait step (summarize needs it). */
function afterWait(wait: JsonObject): JsonObject {
  const doc = boundSeedLwir();
  const summarize = get(doc, ["steps", 0]) as JsonObject;
  doc.steps = [
    { needs: [], ...wait },
    { ...summarize, needs: [String(wait.id)] },
  ];
  return doc;
}

const sleep = (w: unknown, extra: JsonObject = {}): JsonObject => ({ id: "nap", uses: "wait.sleep", with: w, ...extra });
const signalWait = (w: unknown): JsonObject => ({ id: "decide", uses: "wait.signal", with: w });

const WAIT_CASES: Case[] = [
  {
    code: "wait.field_not_allowed",
    title: "a wait with a retry",
    build: () => afterWait(sleep({ durationMs: 1_000 }, { retry: { maxAttempts: 2 } })),
    path: "$.steps[0].retry",
  },
  { code: "wait.invalid_sleep", title: "neither durationMs nor until", build: () => afterWait(sleep({})), path: "$.steps[0].with" },
  {
    code: "wait.invalid_duration",
    title: "more than 365 days",
    build: () => afterWait(sleep({ durationMs: 366 * 86_400_000 })),
    path: "$.steps[0].with.durationMs",
  },
  {
    code: "wait.invalid_until",
    title: "a literal that is no instant",
    build: () => afterWait(sleep({ until: "soon" })),
    path: "$.steps[0].with.until",
  },
  {
    code: "wait.invalid_signals",
    title: "a name the pattern refuses",
    build: () => afterWait(signalWait({ signals: ["Manager Decision"], timeoutMs: 1_000 })),
    path: "$.steps[0].with.signals[0]",
  },
  {
    code: "wait.invalid_timeout",
    title: "timeoutMs 0",
    build: () => afterWait(signalWait({ signals: ["manager.decision"], timeoutMs: 0 })),
    path: "$.steps[0].with.timeoutMs",
  },
  {
    code: "binding.signal_not_declared",
    title: "a signal the workflow does not declare",
    build: () => afterWait(signalWait({ signals: ["manager.decision"], timeoutMs: 1_000 })),
    path: "$.steps[0].with.signals[0]",
  },
];

export const CASES: readonly Case[] = [
  { code: "document.not_object", title: "an array", build: () => [seedLwir()], path: "$" },
  { code: "document.not_object", title: "a string", build: () => "apiVersion: littleworkflow.dev/v0.1", path: "$" },
  { code: "document.not_object", title: "null", build: () => null, path: "$" },
  {
    code: "document.not_json",
    title: "NaN",
    build: () => set(seedLwir(), ["metadata", "version"], Number.NaN),
    path: "$.metadata.version",
  },
  { code: "document.not_json", title: "undefined", build: () => set(seedLwir(), ["kind"], undefined), path: "$.kind" },
  {
    code: "document.not_json",
    title: "Infinity deep in a step",
    build: () => set(seedLwir(), [...summarize, "with", "temperature"], Number.POSITIVE_INFINITY),
    path: "$.steps[0].with.temperature",
  },
  { code: "document.not_json", title: "a function", build: () => set(seedLwir(), ["toJSON"], () => ({})), path: "$.toJSON" },
  {
    code: "document.not_json",
    title: "a Date",
    build: () => set(seedLwir(), ["metadata", "description"], new Date(0)),
    path: "$.metadata.description",
  },
  {
    code: "document.not_json",
    title: "a cycle",
    build: () => {
      const doc = seedLwir();
      set(doc, ["metadata", "self"], doc);
      return doc;
    },
    path: "$.metadata.self",
  },
  { code: "document.not_json", title: "undefined at the root", build: () => undefined, path: "$" },
  {
    code: "document.too_large",
    title: "a 4 MiB description",
    build: () => set(seedLwir(), ["metadata", "description"], "x".repeat(MAX_LWIR_BYTES)),
    path: "$",
  },
  {
    code: "document.too_deep",
    title: "512 levels",
    build: () => deepInputSchema(TOO_DEEP_A_COUNT),
    path: `$.input.schema.properties.deep${".a".repeat(TOO_DEEP_A_COUNT)}`,
  },
  {
    code: "field.required",
    title: "metadata.version removed",
    build: () => remove(seedLwir(), ["metadata", "version"]),
    path: "$.metadata.version",
  },
  {
    code: "field.required",
    title: "steps[0].output removed",
    build: () => remove(seedLwir(), [...summarize, "output"]),
    path: "$.steps[0].output",
  },
  {
    code: "field.invalid_type",
    title: "metadata.description a number",
    build: () => set(seedLwir(), ["metadata", "description"], 42),
    path: "$.metadata.description",
  },
  { code: "field.unknown", title: "an extension field", build: () => set(seedLwir(), ["x-extension"], true), path: '$["x-extension"]' },
  {
    code: "field.unknown",
    title: "a step field",
    build: () => set(seedLwir(), [...summarize, "if"], "{{ input.ticketId }}"),
    path: "$.steps[0].if",
  },
  {
    code: "api_version.unsupported",
    title: "v0.2",
    build: () => set(seedLwir(), ["apiVersion"], "littleworkflow.dev/v0.2"),
    path: "$.apiVersion",
  },
  { code: "kind.unsupported", title: "Pipeline", build: () => set(seedLwir(), ["kind"], "Pipeline"), path: "$.kind" },
  {
    code: "metadata.invalid_name",
    title: "spaces and capitals",
    build: () => set(seedLwir(), ["metadata", "name"], "Support Summarize"),
    path: "$.metadata.name",
  },
  {
    code: "metadata.invalid_version",
    title: "1.0",
    build: () => set(seedLwir(), ["metadata", "version"], "1.0"),
    path: "$.metadata.version",
  },
  {
    code: "schema.invalid",
    title: "input schema a string",
    build: () => set(seedLwir(), ["input", "schema"], "object"),
    path: "$.input.schema",
  },
  {
    code: "schema.invalid",
    title: "output schema of unknown type",
    build: () => set(seedLwir(), ["output", "schema", "type"], "map"),
    path: "$.output.schema.type",
  },
  {
    code: "permissions.duplicate",
    title: "a model twice",
    build: () => set(seedLwir(), ["permissions", "models"], ["gpt-4o-mini", "gpt-4o-mini"]),
    path: "$.permissions.models[1]",
  },
  {
    code: "permissions.invalid_entry",
    title: "a blank tool",
    build: () => set(seedLwir(), ["permissions", "tools"], [" "]),
    path: "$.permissions.tools[0]",
  },
  { code: "steps.empty", title: "no steps", build: () => seedWithSteps([]), path: "$.steps" },
  { code: "steps.too_many", title: "1,001 steps", build: () => chainLwir(MAX_STEPS + 1), path: "$.steps" },
  {
    code: "step.invalid_id",
    title: "capital letter",
    build: () => set(seedLwir(), [...summarize, "id"], "Summarize"),
    path: "$.steps[0].id",
  },
  {
    code: "step.duplicate_id",
    title: "two drafts",
    build: () => seedWithSteps([aiStep("draft"), aiStep("draft"), aiStep("summarize", ["draft"])]),
    path: "$.steps[1].id",
  },
  {
    code: "step.unknown_kind",
    title: "ai.stream",
    build: () => set(seedLwir(), [...summarize, "uses"], "ai.stream"),
    path: "$.steps[0].uses",
  },
  {
    code: "step.needs_unknown",
    title: "ghost",
    build: () => set(seedLwir(), [...summarize, "needs"], ["ghost"]),
    path: "$.steps[0].needs[0]",
  },
  {
    code: "step.needs_self",
    title: "draft needs draft",
    build: () => seedWithSteps([aiStep("draft", ["draft"]), aiStep("summarize", ["draft"])]),
    path: "$.steps[0].needs[0]",
  },
  {
    code: "step.needs_duplicate",
    title: "compute-score twice",
    build: () => set(seedWithComputeScore(), ["steps", 1, "needs"], ["compute-score", "compute-score"]),
    path: "$.steps[1].needs[1]",
  },
  {
    code: "step.model_not_permitted",
    title: "gpt-5 not permitted",
    build: () => set(seedLwir(), [...summarize, "with", "model"], "gpt-5"),
    path: "$.steps[0].with.model",
  },
  {
    code: "step.tool_not_permitted",
    title: "crm.lookup not permitted",
    build: () =>
      set(seedLwir(), summarize, {
        id: "summarize",
        uses: "tool.call",
        needs: [],
        with: { tool: "crm.lookup", input: { ticket: "{{ input.ticketId }}" } },
        output: { mode: "json" },
      }),
    path: "$.steps[0].with.tool",
  },
  {
    code: "step.invalid_retry",
    title: "11 attempts",
    build: () => set(seedLwir(), [...summarize, "retry"], { maxAttempts: 11 }),
    path: "$.steps[0].retry.maxAttempts",
  },
  {
    code: "step.invalid_retry",
    title: "negative backoff",
    build: () => set(seedLwir(), [...summarize, "retry"], { maxAttempts: 2, backoffMs: -1 }),
    path: "$.steps[0].retry.backoffMs",
  },
  {
    code: "step.invalid_timeout",
    title: "0 ms",
    build: () => set(seedLwir(), [...summarize, "timeoutMs"], 0),
    path: "$.steps[0].timeoutMs",
  },
  {
    code: "template.item_outside_fan_out",
    title: "item without forEach",
    build: () => withPrompt("Summarize {{ item.text }}"),
    path: "$.steps[0].with.prompt",
  },
  {
    code: "template.type_mismatch",
    title: "an integer into a tool's string field",
    withLookupTool: true,
    typed: true,
    build: () => withLookup({ ticket: "{{ length(input.transcript) }}" }),
    path: "$.steps[0].with.input.ticket",
  },
  {
    code: "template.unknown_field",
    title: "a field a closed step output does not have",
    withLookupTool: true,
    typed: true,
    build: () =>
      withLookup(
        { ticket: "{{ steps.draft.output.ticket_id }}" },
        [
          {
            id: "draft",
            uses: "ai.generate",
            with: { model: "gpt-4o-mini", prompt: "Find the ticket id in {{ input.transcript }}" },
            output: {
              mode: "object",
              schema: { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"], additionalProperties: false },
            },
          },
        ],
        ["draft"],
      ),
    path: "$.steps[1].with.input.ticket",
  },
  {
    code: "template.may_be_null",
    title: "a join's default() that leaves a branch out, into a required string",
    withLookupTool: true,
    typed: true,
    build: () => withLookup({ ticket: "{{ default(steps.a.output, steps.b.output) }}" }, threeBranches(), ["a", "b", "c"]),
    path: "$.steps[4].with.input.ticket",
  },
  {
    code: "decision.invalid_cases",
    title: "no cases",
    build: () => withDecision({ cases: [], default: "summarize" }),
    path: "$.steps[0].with.cases",
  },
  {
    code: "decision.invalid_when",
    title: "text around the expression",
    build: () => withDecision({ cases: [{ when: "if {{ input.ticketId }}", step: "summarize" }], default: "summarize" }),
    path: "$.steps[0].with.cases[0].when",
  },
  {
    code: "decision.missing_default",
    title: "no default",
    build: () => withDecision({ cases: [{ when: "{{ input.ticketId }}", step: "summarize" }] }),
    path: "$.steps[0].with.default",
  },
  {
    code: "decision.unknown_target",
    title: "a missing step",
    build: () => withDecision({ cases: [{ when: "{{ input.ticketId }}", step: "escalate" }], default: "summarize" }),
    path: "$.steps[0].with.cases[0].step",
  },
  {
    code: "decision.target_not_dependent",
    title: "a target that does not need the decision",
    build: () => {
      const doc = withDecision({ cases: [{ when: "{{ input.ticketId }}", step: "summarize" }], default: "summarize" });
      return set(doc, ["steps", 1, "needs"], []);
    },
    path: "$.steps[0].with.cases[0].step",
    also: [
      { code: "decision.target_not_dependent", path: "$.steps[0].with.default" },
      { code: "graph.multiple_terminals", path: "$.steps" },
    ],
  },
  {
    code: "decision.loop_without_max_visits",
    title: "a loop back without a bound",
    build: () => {
      const doc = withDecision({ cases: [{ when: "{{ input.ticketId }}", step: "summarize" }], default: "summarize" });
      (doc.steps as unknown[]).push({
        id: "again",
        uses: "decision",
        needs: ["summarize"],
        with: { cases: [{ when: "{{ input.ticketId }}", step: "route" }], default: "done" },
      });
      (doc.steps as unknown[]).push({
        id: "done",
        uses: "ai.generate",
        needs: ["again"],
        with: { model: "gpt-4o-mini", prompt: "done" },
        output: { mode: "text" },
      });
      return doc;
    },
    path: "$.steps[2].with.cases[0].step",
  },
  {
    code: "decision.invalid_max_visits",
    title: "0",
    build: () => withDecision({ cases: [{ when: "{{ input.ticketId }}", step: "summarize" }], default: "summarize", maxVisits: 0 }),
    path: "$.steps[0].with.maxVisits",
  },
  {
    code: "fanout.invalid_items",
    title: "text around the expression",
    build: () => set(seedLwir(), [...summarize, "forEach"], { items: "all of {{ input.transcript }}" }),
    path: "$.steps[0].forEach.items",
  },
  {
    code: "fanout.invalid_item_key",
    title: "a number",
    build: () => set(seedLwir(), [...summarize, "forEach"], { items: "{{ input.transcript }}", itemKey: 7 }),
    path: "$.steps[0].forEach.itemKey",
  },
  {
    code: "fanout.invalid_max_concurrency",
    title: "0",
    build: () => set(seedLwir(), [...summarize, "forEach"], { items: "{{ input.transcript }}", maxConcurrency: 0 }),
    path: "$.steps[0].forEach.maxConcurrency",
  },
  {
    code: "fanout.invalid_failure_mode",
    title: "retry_all",
    build: () => set(seedLwir(), [...summarize, "forEach"], { items: "{{ input.transcript }}", failureMode: "retry_all" }),
    path: "$.steps[0].forEach.failureMode",
  },
  {
    code: "step.invalid_parameter",
    title: "temperature 2.5",
    build: () => set(seedLwir(), [...summarize, "with", "temperature"], 2.5),
    path: "$.steps[0].with.temperature",
  },
  {
    code: "step.invalid_parameter",
    title: "maxOutputTokens 0.5",
    build: () => set(seedLwir(), [...summarize, "with", "maxOutputTokens"], 0.5),
    path: "$.steps[0].with.maxOutputTokens",
  },
  {
    code: "graph.cycle",
    title: "2-cycle",
    build: () => seedWithSteps([aiStep("draft", ["summarize"]), aiStep("summarize", ["draft"])]),
    path: "$.steps[0].needs",
  },
  {
    code: "graph.no_terminal",
    title: "the only step needs itself",
    build: () => set(seedLwir(), [...summarize, "needs"], ["summarize"]),
    path: "$.steps",
    also: [{ code: "step.needs_self", path: "$.steps[0].needs[0]" }],
  },
  {
    code: "graph.multiple_terminals",
    title: "a second unreferenced step",
    build: () => {
      const doc = seedLwir();
      (doc.steps as unknown[]).push(aiStep("extra"));
      return doc;
    },
    path: "$.steps",
  },
  {
    code: "output.unknown_mode",
    title: "yaml",
    build: () => set(seedLwir(), [...summarize, "output", "mode"], "yaml"),
    path: "$.steps[0].output.mode",
  },
  {
    code: "output.schema_required",
    title: "object without schema",
    build: () => set(seedLwir(), [...summarize, "output"], { mode: "object" }),
    path: "$.steps[0].output.schema",
  },
  {
    code: "output.schema_mode_mismatch",
    title: "array mode, object schema",
    build: () => set(seedLwir(), [...summarize, "output", "mode"], "array"),
    path: "$.steps[0].output.schema.type",
  },
  {
    code: "output.invalid_choice",
    title: "repeated value",
    build: () => set(seedLwir(), [...summarize, "output"], { mode: "choice", values: ["low", "low"] }),
    path: "$.steps[0].output.values",
  },
  {
    code: "output.unexpected_field",
    title: "schema on text",
    build: () => set(seedLwir(), [...summarize, "output"], { mode: "text", schema: { type: "string" } }),
    path: "$.steps[0].output.schema",
  },
  {
    code: "code.invalid_file_name",
    title: "../score.ts",
    build: () => {
      const doc = seedWithComputeScore();
      set(doc, [...score, "with", "files"], { "../score.ts": get(doc, scoreFile) });
      return set(doc, [...score, "with", "entrypoint"], "../score.ts");
    },
    path: '$.steps[0].with.files["../score.ts"]',
  },
  {
    code: "code.unsupported_language",
    title: "score.py",
    build: () => {
      const doc = seedWithComputeScore();
      set(doc, [...score, "with", "files"], { "score.py": get(doc, scoreFile) });
      return set(doc, [...score, "with", "entrypoint"], "score.py");
    },
    path: "$.steps[0].with.entrypoint",
  },
  {
    code: "code.entrypoint_missing",
    title: "main.ts",
    build: () => set(seedWithComputeScore(), [...score, "with", "entrypoint"], "main.ts"),
    path: "$.steps[0].with.entrypoint",
  },
  {
    code: "code.file_digest_mismatch",
    title: "content changed by one character",
    build: () => {
      const doc = seedWithComputeScore();
      return set(doc, [...scoreFile, "content"], `${get(doc, [...scoreFile, "content"])} `);
    },
    path: '$.steps[0].with.files["score.ts"].sha256',
  },
  {
    code: "code.invalid_digest",
    title: "uppercase hex",
    build: () => set(seedWithComputeScore(), [...scoreFile, "sha256"], SCORE_TS_SHA256.toUpperCase().replace("SHA256:", "sha256:")),
    path: '$.steps[0].with.files["score.ts"].sha256',
  },
  {
    code: "code.invalid_sandbox",
    title: "env maybe",
    build: () => set(seedWithComputeScore(), [...score, "with", "sandbox", "env"], "maybe"),
    path: "$.steps[0].with.sandbox.env",
  },
  {
    code: "code.invalid_sandbox",
    title: "sandbox missing",
    build: () => remove(seedWithComputeScore(), [...score, "with", "sandbox"]),
    path: "$.steps[0].with.sandbox",
  },
  {
    code: "code.network_not_permitted",
    title: "network allowed, none permitted",
    build: () => set(seedWithComputeScore(), [...score, "with", "sandbox", "network"], "allow"),
    path: "$.steps[0].with.sandbox.network",
  },
  {
    code: "code.invalid_limits",
    title: "wallMs too large",
    build: () => set(seedWithComputeScore(), [...score, "with", "limits"], { wallMs: 300_001 }),
    path: "$.steps[0].with.limits.wallMs",
  },
  {
    code: "fixer.wrong_step_kind",
    title: "fixer on ai.generate",
    build: () => set(seedLwir(), [...summarize, "onFailure"], get(computeScoreStep(), ["onFailure"])),
    path: "$.steps[0].onFailure.fixer",
  },
  {
    code: "fixer.model_not_permitted",
    title: "gpt-5",
    build: () => set(seedWithComputeScore(), [...fixer, "model"], "gpt-5"),
    path: "$.steps[0].onFailure.fixer.model",
  },
  {
    code: "fixer.invalid_max_attempts",
    title: "6",
    build: () => set(seedWithComputeScore(), [...fixer, "maxAttempts"], 6),
    path: "$.steps[0].onFailure.fixer.maxAttempts",
  },
  {
    code: "fixer.missing_system",
    title: "blank",
    build: () => set(seedWithComputeScore(), [...fixer, "system"], "   "),
    path: "$.steps[0].onFailure.fixer.system",
  },
  {
    code: "template.syntax",
    title: "arithmetic",
    build: () => withPrompt("Score {{ input.ticketId + 1 }}"),
    path: "$.steps[0].with.prompt",
  },
  { code: "template.unterminated", title: "no }}", build: () => withPrompt("Summarize {{ input.ticketId"), path: "$.steps[0].with.prompt" },
  {
    code: "template.wrong_delimiters",
    title: "a JavaScript-style dollar-brace reference",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the wrong syntax is the case under test
    build: () => withPrompt("Summarize ${input.ticketId}"),
    path: "$.steps[0].with.prompt",
  },
  {
    code: "template.skipped_branch",
    title: "a join reading a branch the decision may skip",
    build: () => {
      const doc = seedLwir();
      const summarize = get(doc, ["steps", 0]) as JsonObject;
      doc.steps = [
        { id: "route", uses: "decision", needs: [], with: { cases: [{ when: "{{ input.ticketId }}", step: "a" }], default: "b" } },
        { id: "a", uses: "ai.generate", needs: ["route"], with: { model: "gpt-4o-mini", prompt: "A" }, output: { mode: "text" } },
        { id: "b", uses: "ai.generate", needs: ["route"], with: { model: "gpt-4o-mini", prompt: "B" }, output: { mode: "text" } },
        {
          ...summarize,
          needs: ["a", "b"],
          with: { model: "gpt-4o-mini", prompt: "{{ steps.a.output }} {{ default(steps.a.output, steps.b.output) }}" },
        },
      ];
      return doc;
    },
    path: "$.steps[3].with.prompt",
  },
  {
    code: "template.unknown_root",
    title: "process.env",
    build: () => withPrompt("Key: {{ process.env.OPENAI_API_KEY }}"),
    path: "$.steps[0].with.prompt",
  },
  { code: "template.unknown_step", title: "ghost", build: () => withPrompt("{{ steps.ghost.output }}"), path: "$.steps[0].with.prompt" },
  {
    code: "template.step_not_upstream",
    title: "compute-score reads its downstream step",
    build: () => set(seedWithComputeScore(), [...score, "with", "input"], { ticket: "{{ steps.summarize.output.summary }}" }),
    path: "$.steps[0].with.input.ticket",
  },
  {
    code: "template.forbidden_property",
    title: "constructor",
    build: () => withPrompt("{{ input.constructor }}"),
    path: "$.steps[0].with.prompt",
  },
  { code: "template.unknown_function", title: "eval", build: () => withPrompt('{{ eval("1") }}'), path: "$.steps[0].with.prompt" },
  {
    code: "template.function_arity",
    title: "join with one argument",
    build: () => withPrompt("{{ join(input.transcript) }}"),
    path: "$.steps[0].with.prompt",
  },
  {
    code: "template.unknown_input_field",
    title: "customerEmail",
    build: () => withPrompt("Reply to {{ input.customerEmail }}"),
    path: "$.steps[0].with.prompt",
  },
  {
    code: "binding.workflow_name_mismatch",
    title: "another name",
    build: () => set(boundSeedLwir(), ["metadata", "name"], "support.triage-ticket"),
    path: "$.metadata.name",
  },
  {
    code: "binding.input_schema_mismatch",
    title: "an extra input property",
    build: () => set(boundSeedLwir(), ["input", "schema", "properties", "priority"], { type: "string" }),
    path: "$.input.schema",
  },
  {
    code: "binding.output_schema_mismatch",
    title: "an extra severity",
    build: () => set(boundSeedLwir(), ["output", "schema", "properties", "severity", "enum"], ["low", "medium", "high", "critical"]),
    path: "$.output.schema",
  },
  {
    code: "binding.model_not_in_snapshot",
    title: "an undeclared slot",
    build: () => set(boundSeedLwir(), ["permissions", "models"], ["gpt-4o-mini", "claude-sonnet"]),
    path: "$.permissions.models[1]",
  },
  {
    code: "binding.tool_not_in_snapshot",
    title: "crm.lookup",
    build: () => set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]),
    path: "$.permissions.tools[0]",
  },
  {
    code: "binding.step_model_not_allowed",
    title: "step model not a slot",
    build: () => {
      const doc = set(boundSeedLwir(), ["permissions", "models"], ["gpt-4o-mini", "claude-sonnet"]);
      return set(doc, [...summarize, "with", "model"], "claude-sonnet");
    },
    path: "$.steps[0].with.model",
    also: [{ code: "binding.model_not_in_snapshot", path: "$.permissions.models[1]" }],
  },
  {
    code: "binding.step_tool_not_allowed",
    title: "tool.call of an unknown tool",
    build: () => {
      const doc = set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]);
      (doc.steps as unknown[]).unshift({
        id: "lookup",
        uses: "tool.call",
        with: { tool: "crm.lookup", input: { ticket: "{{ input.ticketId }}" } },
        output: { mode: "json" },
      });
      return set(doc, ["steps", 1, "needs"], ["lookup"]);
    },
    path: "$.steps[0].with.tool",
    also: [{ code: "binding.tool_not_in_snapshot", path: "$.permissions.tools[0]" }],
  },
  {
    code: "binding.tool_input_mismatch",
    title: "a tool input field the tool's schema does not have",
    withLookupTool: true,
    build: () => {
      const doc = set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]);
      (doc.steps as unknown[]).unshift({
        id: "lookup",
        uses: "tool.call",
        with: { tool: "crm.lookup", input: { tcket: "{{ input.ticketId }}" } },
        output: { mode: "json" },
      });
      return set(doc, ["steps", 1, "needs"], ["lookup"]);
    },
    path: "$.steps[0].with.input",
  },
  {
    code: "binding.required_tool_not_called",
    title: "a required tool that no step calls",
    requiresLookup: true,
    build: () => boundSeedLwir(),
    path: "$.steps",
  },
  {
    code: "binding.output_mode_mismatch",
    title: "a terminal step whose output is not the requested output",
    // An error: text can never be the object the workflow asks for (a json step would be a warning).
    build: () => set(boundSeedLwir(), ["steps", 0, "output"], { mode: "text" }),
    path: "$.steps[0].output",
  },
  {
    code: "binding.network_not_allowed",
    title: "a host outside the allowlist",
    build: () => set(boundSeedLwir(), ["permissions", "network"], ["api.example.com"]),
    path: "$.permissions.network[0]",
  },
  {
    code: "binding.secret_not_in_snapshot",
    title: "a secret",
    build: () => set(boundSeedLwir(), ["permissions", "secrets"], ["ZENDESK_TOKEN"]),
    path: "$.permissions.secrets[0]",
  },
  ...WAIT_CASES,
  {
    code: "binding.workflow_not_declared",
    title: "a workflow.run of a workflow the definition does not declare",
    build: () => withCall("crm.refund", { orderId: "{{ input.ticketId }}", amountCents: 500 }),
    path: "$.steps[0].with.workflow",
  },
  {
    code: "binding.workflow_input_mismatch",
    title: "a workflow.run input missing a field the callee requires",
    withCallee: true,
    build: () => withCall("crm.refund", { orderId: "{{ input.ticketId }}" }),
    path: "$.steps[0].with.input",
  },
  {
    code: "binding.workflow_output_mismatch",
    title: "a workflow.run whose output mode cannot hold the callee's output",
    withCallee: true,
    build: () => withCall("crm.refund", { orderId: "{{ input.ticketId }}", amountCents: 500 }, { mode: "text" }),
    path: "$.steps[0].output",
  },
];
