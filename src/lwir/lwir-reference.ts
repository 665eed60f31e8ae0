import { OUTPUT_MODES } from "../schema/normalize-output-mode.ts";
import {
  CODE_FILE,
  CODE_LIMITS,
  DECISION_CASE,
  documentShape,
  FIXER,
  FOR_EACH,
  fieldSummary,
  METADATA,
  OUTPUT_SHAPES,
  PERMISSIONS,
  RETRY,
  SANDBOX_POLICY,
  type ShapeSpec,
  stepShape,
  WITH_SHAPES,
} from "./lwir-spec.ts";
import { TEMPLATE_FUNCTIONS } from "./template.ts";
import { STEP_KINDS, type StepKind } from "./types.ts";

/**
 * The template grammar, exactly as the parser reads it, as the planner prompt carries it. `version` is the LWIR validator's: a run
 * planned under `@1` keeps its bytes (its recorded planner calls are hashed with them).
 */
export function templateGrammar(version: 1 | 2 = 2): string {
  const functions = Object.entries(TEMPLATE_FUNCTIONS)
    .map(([name, arity]) => `${name}/${arity}`)
    .join(" ");
  return [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: names the wrong syntax on purpose
    "Templates: strings in with.prompt, with.system, forEach.items/itemKey, a decision's when, and strings inside the input of tool.call/code.run may hold {{ expr }} (two braces; not ${…}, not {…}).",
    "  expr    := call | ref | literal",
    `  call    := name "(" [expr ("," expr)*] ")"   name/arity: ${functions}`,
    "  ref     := input access* | item access* | steps.<step id>.output access*",
    '  access  := .ident | [integer] | ["key"]',
    "  literal := \"string\" | 'string' | number | true | false | null",
    "A string that is exactly one {{ expr }} keeps the value's JSON type; text around it makes a string. No filters (a | f): call f(a).",
    "steps.<id> may be read only when <id> is upstream through needs. item exists only in a step with forEach.",
    ...(version === 1 ? [LEGACY_JOIN] : JOIN_AND_FAN_OUT),
  ].join("\n");
}

const LEGACY_JOIN =
  'Truthy: anything but false, null, missing, 0, "" and []. A decision outputs { "chosen": "<step id>" }; steps it does not choose are skipped, and so is a step all of whose needs were skipped; a join needs both branches and reads whichever ran: {{ default(steps.a.output, steps.b.output) }}.';

const JOIN_AND_FAN_OUT = [
  'Truthy: anything but false, null, missing, 0, "" and []. A decision outputs { "chosen": "<step id>" }; steps it does not choose are skipped, and so is a step all of whose needs were skipped; a join needs every branch and reads whichever ran through default(), field by field so each value fits where it lands: {{ default(steps.a.output.reply, steps.b.output.reply) }}. When the branches give different shapes, read from each the field that fits (default(steps.refund.output.refundId, steps.deny.output.reason) into a string); list every branch, or end with a literal: default(…, "none").',
  'A forEach step\'s output is the array of its branch outputs in item order (output describes one branch); with failureMode "all_settled" each item is { "status": "succeeded", "output" } or { "status": "failed", "error" }.',
];

function shapeLine(label: string, shape: ShapeSpec): string {
  return `${label}: { ${fieldSummary(shape)} }`;
}

/** The field reference the planner prompt carries: one line per object, `?` marks optional fields. */
export function fieldReference(kinds: readonly StepKind[] = STEP_KINDS): string {
  const waits = kinds.includes("wait.sleep")
    ? ["  wait.sleep and wait.signal steps take no retry, timeoutMs or forEach; their output is fixed (output may be omitted)"]
    : [];
  const lines = [
    shapeLine("document", documentShape(kinds)),
    shapeLine("metadata", METADATA),
    `permissions: { ${fieldSummary(PERMISSIONS)} } — all four lists, [] for none`,
    `step: { ${fieldSummary(stepShape("code.run"))} } — onFailure only on code.run; output optional on decision`,
    ...kinds.map((kind) => shapeLine(`  uses "${kind}" → with`, WITH_SHAPES[kind])),
    ...waits,
    shapeLine("  code file", CODE_FILE),
    shapeLine("  sandbox", SANDBOX_POLICY),
    shapeLine("  limits", CODE_LIMITS),
    shapeLine("  case", DECISION_CASE),
    shapeLine("  onFailure.fixer", FIXER),
    shapeLine("retry", RETRY),
    shapeLine("forEach", FOR_EACH),
    `output (on the step, never inside with): ${OUTPUT_MODES.map((m) => outputLine(m)).join(" | ")}`,
  ];
  return lines.join("\n");
}

function outputLine(mode: (typeof OUTPUT_MODES)[number]): string {
  const rest = fieldSummary(OUTPUT_SHAPES[mode]).replace(/^mode(, )?/, "");
  return `{ mode: "${mode}"${rest ? `, ${rest}` : ""} }`;
}

function shapeTable(title: string, shape: ShapeSpec): string {
  const rows = Object.entries(shape.fields).map(
    ([name, f]) => `| \`${name}\` | ${f.required ? "yes" : "no"} | ${f.doc.replaceAll("|", "\\|")} |`,
  );
  return [`### ${title}`, "", "| field | required | holds |", "| --- | --- | --- |", ...rows].join("\n");
}

/** `/mnt/task/lwir-reference.md`: every object of the document with every field, generated from the contract. */
export function lwirReferenceMarkdown(kinds: readonly StepKind[] = STEP_KINDS): string {
  const key = kinds.join(",");
  const known = references.get(key);
  if (known) return known;
  const reference = [
    "# LWIR reference (generated from the validator's contract)",
    "",
    "Every object is closed: a field not listed here is refused (`field.unknown`). Check a draft with `lwir-check <file>` before submitting; it runs the same validation and binding as `submit_lwir` and costs no revision. The JSON Schema is `/mnt/task/lwir.schema.json`.",
    "",
    shapeTable("Document", documentShape(kinds)),
    shapeTable("metadata", METADATA),
    shapeTable("permissions", PERMISSIONS),
    ...kinds.flatMap((kind) => [shapeTable(`Step with uses "${kind}"`, stepShape(kind)), shapeTable(`with (${kind})`, WITH_SHAPES[kind])]),
    shapeTable("code.run file", CODE_FILE),
    shapeTable("code.run sandbox", SANDBOX_POLICY),
    shapeTable("code.run limits", CODE_LIMITS),
    shapeTable("decision case", DECISION_CASE),
    shapeTable("onFailure.fixer", FIXER),
    shapeTable("retry", RETRY),
    shapeTable("forEach", FOR_EACH),
    ...OUTPUT_MODES.map((m) => shapeTable(`output, mode "${m}"`, OUTPUT_SHAPES[m])),
    "## Templates",
    "",
    "```",
    templateGrammar(),
    "```",
    "",
    "## code.run",
    "",
    'The entrypoint exports `run({ input })` (sync or async) and returns the step\'s output as JSON. A file\'s `sha256` is `"sha256:"` + the hex SHA-256 of its content: in bash, write the file, then `sha256sum file.ts` and prefix `sha256:`. TypeScript is stripped before it runs; with `sandbox.network: "deny"` fetch throws, with `env: "deny"` the env is empty.',
    "",
  ].join("\n\n");
  references.set(key, reference);
  return reference;
}

const references = new Map<string, string>();
