/**
 * @module Which of a workflow's tools the offline planner can call, and with what: a tool's input
 * field is filled from a required run-input field or a required output field of an earlier tool,
 * of the same name and a JSON type the tool accepts. Structural only (names and schemas, never values), so the plan is the
 * same for every input and dedupes into one version.
 */
import type { ToolDescriptor } from "../../identity/tool-descriptors.ts";

type Schema = Record<string, unknown>;

/** A value the plan can pass on: where it is read from, its schema, and the step that gives it. */
export type FieldSource = { readonly ref: string; readonly schema: unknown; readonly stepId?: string };

/** One planned tool call: the step id, the tool, its input templates and the steps it reads. */
export type PlannedToolCall = {
  readonly stepId: string;
  readonly tool: ToolDescriptor;
  readonly input: Readonly<Record<string, string>>;
  readonly needs: readonly string[];
  /** The tool's output schema when it is an object schema: later steps may read its fields. */
  readonly outputSchema: Schema | null;
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `base.x`, or `base["x-y"]` when the name is not an identifier. */
export function fieldRef(base: string, name: string): string {
  return IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

/** The properties of an object schema, in declaration order (none for anything else). */
export function propertiesOf(schema: unknown): [string, unknown][] {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === "object" ? Object.entries(properties as Schema) : [];
}

/**
 * The properties an object schema requires: the only ones a plan can pass on, since an optional
 * one may be absent from a run's input and its template would then give the tool nothing.
 */
function requiredPropertiesOf(schema: unknown): [string, unknown][] {
  const required = (schema as { required?: unknown } | null)?.required;
  return Array.isArray(required) ? propertiesOf(schema).filter(([name]) => required.includes(name)) : [];
}

/**
 * The tool calls the offline planner makes: every tool whose required input fields can all be
 * filled, in rounds (a tool fed by another tool's output comes after it), each tool once. Tools
 * that cannot be fed are left out: inventing an id for a tool that acts on the world would teach
 * the wrong thing.
 */
export function plannedToolCalls(inputSchema: unknown, tools: readonly ToolDescriptor[], reserved: ReadonlySet<string>): PlannedToolCall[] {
  const sources = new Map<string, FieldSource>();
  for (const [name, schema] of requiredPropertiesOf(inputSchema)) sources.set(name, { ref: fieldRef("input", name), schema });
  const taken = new Set(reserved);
  const calls: PlannedToolCall[] = [];
  let pending = [...tools];
  for (let progress = true; progress && pending.length > 0; ) {
    progress = false;
    for (const tool of pending) {
      const wired = wireInput(tool, sources);
      if (!wired) continue;
      const stepId = uniqueStepId(tool.id, taken);
      const outputSchema = typeOf(tool.outputSchema).includes("object") ? (tool.outputSchema as Schema) : null;
      calls.push({ stepId, tool, ...wired, outputSchema });
      // Input fields stay the first source of a name; a tool's output adds only names not seen yet.
      for (const [name, schema] of requiredPropertiesOf(outputSchema)) {
        if (!sources.has(name)) sources.set(name, { ref: fieldRef(`steps.${stepId}.output`, name), schema, stepId });
      }
      progress = true;
    }
    pending = pending.filter((t) => !calls.some((c) => c.tool.id === t.id));
  }
  return calls;
}

function wireInput(tool: ToolDescriptor, sources: ReadonlyMap<string, FieldSource>): Pick<PlannedToolCall, "input" | "needs"> | null {
  const schema = tool.inputSchema;
  if (typeof schema !== "object" || schema === null || !typeOf(schema).includes("object")) return null;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const input: Record<string, string> = {};
  const needs = new Set<string>();
  for (const [name, target] of propertiesOf(schema)) {
    const source = sources.get(name);
    if (!source || !accepts(target, source.schema)) continue;
    // A whole-string template keeps the value's JSON type (docs/lwir.md, Templates).
    input[name] = `{{ ${source.ref} }}`;
    if (source.stepId) needs.add(source.stepId);
  }
  if (!required.every((name) => name in input)) return null;
  return { input, needs: [...needs].sort() };
}

/** Whether every value `source` allows is of a JSON type `target` takes (and within its enum). */
export function accepts(target: unknown, source: unknown): boolean {
  if (target === true || (typeof target === "object" && target !== null && Object.keys(target).length === 0)) return true;
  const wanted = typeOf(target);
  const given = typeOf(source);
  if (wanted.length === 0 || given.length === 0) return false;
  const fits = given.every((t) => wanted.includes(t) || (t === "integer" && wanted.includes("number")));
  if (!fits) return false;
  const targetEnum = (target as { enum?: unknown }).enum;
  if (!Array.isArray(targetEnum)) return true;
  const sourceEnum = (source as { enum?: unknown }).enum;
  return Array.isArray(sourceEnum) && sourceEnum.every((v) => targetEnum.includes(v));
}

/** The JSON types a schema names (from `type`, else from its `enum` or `const` values). */
export function typeOf(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const s = schema as Schema;
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : [];
  return [...new Set(values.map(jsonType))];
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** A valid, unused step id for a tool: `lookupCustomer` → `lookup_customer`, `billing.issue-refund` → `billing_issue-refund`. */
export function uniqueStepId(toolId: string, taken: Set<string>): string {
  const base =
    toolId
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "_")
      .replace(/^[^a-z]+/, "")
      .slice(0, 56) || "tool";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
