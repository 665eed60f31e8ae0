/**
 * @module The static type pass over LWIR templates (validator `@2`, docs/lwir.md "Types"): every
 * expression's type is inferred from the schemas it reads and checked against the schema it lands
 * in — a tool's input schema, a prompt (text), a fan-out's `items` (an array), and the terminal
 * step's output against the workflow's output. A definite mismatch, a read of a field a schema
 * does not have, and a join's `default(…)` that can still be missing are findings with the fix.
 */
import type { CalleeCapabilities, DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { ToolDescriptor } from "../identity/tool-descriptors.ts";
import type { Finding } from "../sdk/finding.ts";
import { childPath } from "../sdk/json-path.ts";
import { closestField } from "./closest-field.ts";
import { FindingSink } from "./findings-sink.ts";
import { findCycle, terminalSteps, upstreamSets } from "./graph.ts";
import { type Inferred, inferExpression, mayBeMissing, type TypeScope, type UnknownRead } from "./infer-template-type.ts";
import { joinGuards, stepOutputType, type TypedNode } from "./step-output-types.ts";
import { parseTemplate, type TemplateExpr } from "./template.ts";
import { ANY, describeType, STRING, type TemplateType, typeOfSchema } from "./template-types.ts";
import { mismatchOf } from "./type-mismatch.ts";

/** What a prompt accepts: text, or a scalar that prints as text (an object prints as "[object Object]"). */
const PROMPT_SCHEMA = { type: ["string", "number", "integer", "boolean", "null"] };
const ITEMS_SCHEMA = { type: "array" };
/** A code.run's input as a whole must exist: the code is called with `run({ input })` and reads it. */
const CODE_INPUT_SCHEMA = { type: ["string", "number", "integer", "boolean", "array", "object"] };

/** Runs the type pass over a draft; reads defensively, so it runs on drafts with other errors too. */
export function checkTemplateTypes(lwir: unknown, capabilities: DefinitionCapabilities): Finding[] {
  const sink = new FindingSink();
  const doc = typeof lwir === "object" && lwir !== null ? (lwir as Record<string, unknown>) : {};
  const nodes = nodesOf(doc.steps);
  if (nodes.length === 0 || findCycle(nodes)) return [];
  const tools = new Map(capabilities.snapshot.tools.map((t) => [t.id, t]));
  const upstream = upstreamSets(nodes);
  const callees = new Map(capabilities.callees.map((c) => [c.id, c]));
  const outputs = new Map(nodes.map((n) => [n.id, stepOutputType(n.step, tools, callees)]));
  const guards = joinGuards(nodes, upstream);
  const input = typeOfSchema((doc.input as { schema?: unknown } | undefined)?.schema);
  for (const node of nodes) {
    const above = upstream.get(node.id) ?? new Set<string>();
    const base: TypeScope = {
      input,
      item: undefined,
      steps: new Map([...outputs].filter(([id]) => above.has(id))),
      guards: guards.get(node.id) ?? new Map(),
    };
    checkStepTypes(sink, node, base, tools, callees);
  }
  checkTerminal(sink, nodes, outputs, capabilities);
  return dedupe(sink.findings);
}

function nodesOf(steps: unknown): TypedNode[] {
  if (!Array.isArray(steps)) return [];
  const seen = new Set<string>();
  return steps.flatMap((raw, i) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [];
    const step = raw as Record<string, unknown>;
    if (typeof step.id !== "string" || seen.has(step.id)) return [];
    seen.add(step.id);
    const needs = Array.isArray(step.needs) ? step.needs.filter((n): n is string => typeof n === "string" && n !== step.id) : [];
    return [{ id: step.id, needs, path: childPath("$.steps", i), step }];
  });
}

function checkStepTypes(
  sink: FindingSink,
  node: TypedNode,
  base: TypeScope,
  tools: ReadonlyMap<string, ToolDescriptor>,
  callees: ReadonlyMap<string, CalleeCapabilities>,
): void {
  const { step, path } = node;
  const fanOut = typeof step.forEach === "object" && step.forEach !== null ? (step.forEach as Record<string, unknown>) : undefined;
  let scope = base;
  if (fanOut) {
    const items = checkString(sink, fanOut.items, `${path}.forEach.items`, base, ITEMS_SCHEMA, "forEach.items");
    const elements = items?.alternatives.length === 1 && items.alternatives[0]?.kind === "array" ? items.alternatives[0].items : ANY;
    scope = { ...base, item: elements };
    checkString(sink, fanOut.itemKey, `${path}.forEach.itemKey`, scope, undefined, "forEach.itemKey");
  }
  const w = typeof step.with === "object" && step.with !== null ? (step.with as Record<string, unknown>) : {};
  switch (step.uses) {
    case "ai.generate":
      checkString(sink, w.prompt, `${path}.with.prompt`, scope, PROMPT_SCHEMA, "the prompt");
      checkString(sink, w.system, `${path}.with.system`, scope, PROMPT_SCHEMA, "the system prompt");
      return;
    case "tool.call": {
      const tool = tools.get(String(w.tool));
      walk(sink, w.input, `${path}.with.input`, scope, tool?.inputSchema, tool ? `tool "${tool.id}"` : "the tool");
      return;
    }
    case "code.run":
      walk(sink, w.input, `${path}.with.input`, scope, CODE_INPUT_SCHEMA, "the code's input");
      return;
    case "workflow.run": {
      const callee = callees.get(String(w.workflow));
      walk(sink, w.input, `${path}.with.input`, scope, callee?.inputSchema, callee ? `workflow "${callee.id}"` : "the callee");
      return;
    }
    case "decision": {
      const cases = Array.isArray(w.cases) ? w.cases : [];
      cases.forEach((c, i) => {
        const when = typeof c === "object" && c !== null ? (c as { when?: unknown }).when : undefined;
        checkString(sink, when, `${path}.with.cases[${i}].when`, scope, undefined, "a condition");
      });
      return;
    }
    default:
      return;
  }
}

/** Walks a templated JSON value beside the schema each part of it lands in. */
function walk(sink: FindingSink, value: unknown, path: string, scope: TypeScope, schema: unknown, target: string): void {
  if (typeof value === "string") {
    checkString(sink, value, path, scope, schema, target);
    return;
  }
  const s = typeof schema === "object" && schema !== null ? (schema as Record<string, unknown>) : undefined;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      walk(sink, v, childPath(path, i), scope, s?.items, target);
    });
  } else if (typeof value === "object" && value !== null) {
    const properties = typeof s?.properties === "object" && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
    for (const [key, v] of Object.entries(value)) {
      const field = Object.hasOwn(properties, key)
        ? properties[key]
        : typeof s?.additionalProperties === "object"
          ? s.additionalProperties
          : undefined;
      walk(sink, v, childPath(path, key), scope, field, `${target} field "${key}"`);
    }
  }
}

/** Infers one template string (whole expression: its type; text around: a string) and checks it against `schema`. */
function checkString(
  sink: FindingSink,
  text: unknown,
  path: string,
  scope: TypeScope,
  schema: unknown,
  target: string,
): Inferred | undefined {
  if (typeof text !== "string" || !text.includes("{{")) return undefined;
  const parsed = parseTemplate(text);
  if (!parsed.ok) return undefined;
  const onUnknown = (read: UnknownRead) => reportUnknown(sink, read, path);
  const exprs = parsed.parts.flatMap((p) => (p.kind === "expr" ? [p] : []));
  const whole = parsed.parts.length === 1 && exprs.length === 1 ? exprs[0] : undefined;
  const inferred = exprs.map((p) => ({ source: p.source, expr: p.expr, ty: inferExpression(p.expr, scope, onUnknown) }));
  const result: Inferred = whole ? (inferred[0]?.ty as Inferred) : { alternatives: [STRING], presence: "always", guardedBare: false };
  if (schema === undefined) return result;
  for (const alternative of result.alternatives) {
    const reason = mismatchOf(alternative, schema);
    if (!reason) continue;
    const source = whole ? `"{{ ${whole.source} }}"` : JSON.stringify(text);
    const fix = fixFor(alternative, schema, whole?.expr, inferred);
    sink.error("template.type_mismatch", path, `${source} gives ${reason}, in ${target}. ${fix}`);
    return result;
  }
  const presence = result.presence;
  if (whole && mayBeMissing(presence) && !result.guardedBare && mismatchOf({ kind: "null" }, schema) !== null) {
    const missing = presence.all.filter((b) => !presence.branches.has(b));
    sink.error(
      "template.may_be_null",
      path,
      `"{{ ${whole.source} }}" is missing when decision "${presence.decision}" chooses ${missing.map((m) => `"${m}"`).join(" or ")}, and ${target} does not accept null: cover every branch with default(…), e.g. {{ default(${whole.source}, <the same value from steps.${missing[0]}>) }}, or end it with a literal fallback, e.g. {{ default(${whole.source}, "none") }}`,
    );
  }
  return result;
}

function fixFor(
  given: TemplateType,
  schema: unknown,
  whole: TemplateExpr | undefined,
  parts: readonly { source: string; ty: Inferred }[],
): string {
  const expected = typeOfSchema(schema);
  if (whole?.type === "call" && whole.name === "default")
    return `Either argument of default(…) may be the value used (in a join, whichever branch ran), so each must be ${describeType(expected)}: read the same kind of field from each, e.g. {{ default(steps.a.output.<field>, steps.b.output.<field>) }}.`;
  if (!whole && parts.length === 1) {
    const only = parts[0] as { source: string; ty: Inferred };
    if (only.ty.alternatives.every((a) => mismatchOf(a, schema) === null))
      return `Text around an expression makes a string: write exactly "{{ ${only.source} }}" with nothing around it, so it keeps its type (${describeType(only.ty.alternatives[0] ?? ANY)}).`;
  }
  if (given.kind === "object" || given.kind === "array")
    return accepts(expected, "string")
      ? "Read one field of it (e.g. {{ steps.<id>.output.<field> }}), or write it as text with json(…)."
      : `Read a field of type ${describeType(expected)} from it instead of the whole value.`;
  if (given.kind === "string" && accepts(expected, "number") && !accepts(expected, "string"))
    return "Templates cannot turn text into a number: read a number field (of the input, or of an upstream step whose output schema gives one).";
  return `Read a value of type ${describeType(expected)}.`;
}

function accepts(ty: TemplateType, kind: TemplateType["kind"]): boolean {
  return ty.kind === kind || (ty.kind === "union" && ty.members.some((m) => m.kind === kind));
}

function reportUnknown(sink: FindingSink, read: UnknownRead, path: string): void {
  const { reference, key, miss } = read;
  const field = typeof key === "number" ? `[${key}]` : `"${key}"`;
  const what =
    miss.on.kind === "object" || miss.on.kind === "union"
      ? `has no field ${field} (its fields: ${miss.fields.join(", ") || "none"})`
      : `is ${describeType(miss.on)}, which has no field ${field}`;
  const guess = typeof key === "string" ? suggestField(key, miss.fields) : undefined;
  const hint = guess ? `; did you mean "${guess}"?` : "";
  const message = `${reference} ${what}${hint}`;
  if (miss.closed) sink.error("template.unknown_field", path, `${message}. The value would be missing at run time.`);
  else sink.warn("template.unknown_field", path, `${message}. The schema allows other fields, so it may exist, but none is declared.`);
}

/** The declared field a misspelt or shortened read most likely meant (`amount` → `amountCents`). */
function suggestField(key: string, fields: readonly string[]): string | undefined {
  if (fields.length === 0) return undefined;
  const lower = key.toLowerCase();
  return (
    closestField(key, fields) ??
    fields.find((f) => f.toLowerCase().startsWith(lower) || lower.startsWith(f.toLowerCase())) ??
    (fields.length === 1 ? fields[0] : undefined)
  );
}

/** The terminal step's output is the run's output: it must be able to match the workflow's output schema. */
function checkTerminal(
  sink: FindingSink,
  nodes: readonly TypedNode[],
  outputs: ReadonlyMap<string, TemplateType>,
  capabilities: DefinitionCapabilities,
): void {
  const terminals = terminalSteps(nodes);
  if (terminals.length !== 1) return;
  const node = nodes.find((n) => n.id === terminals[0]) as TypedNode;
  if (node.step.uses === "decision") return;
  const fanOut = node.step.forEach !== undefined;
  // A mode of another JSON type than the requested one is binding.output_mode_mismatch already.
  const mode = (node.step.output as { mode?: unknown } | undefined)?.mode;
  const kinds = [valueKind(mode), valueKind(capabilities.requestedOutput.mode)];
  if (!fanOut && kinds[0] !== "any" && kinds[1] !== "any" && kinds[0] !== kinds[1]) return;
  const given = outputs.get(node.id) ?? ANY;
  const reason = mismatchOf(given, capabilities.outputSchema);
  if (!reason) return;
  const fix = fanOut
    ? `A forEach step's output is the array of its branch outputs, so a fan-out cannot be the terminal step of a workflow whose output is ${describeType(typeOfSchema(capabilities.outputSchema))}: add a step after it that needs it and gives the requested output.`
    : `Give it the task's requestedOutput: ${JSON.stringify(capabilities.requestedOutput)}.`;
  sink.error(
    "template.type_mismatch",
    `${node.path}.output`,
    `"${node.id}" is the terminal step, so its output is the workflow's output; it gives ${reason}. ${fix}`,
  );
}

/** The JSON type an output mode's values have (as binding.output_mode_mismatch reads it). */
function valueKind(mode: unknown): string {
  if (mode === "text" || mode === "choice") return "string";
  if (mode === "object" || mode === "array") return mode;
  return "any";
}

function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}\n${f.path}\n${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
