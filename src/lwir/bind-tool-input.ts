import type { ToolDescriptor } from "../identity/tool-descriptors.ts";
import type { JsonSchema } from "../schema/normalize-schema.ts";
import { validateJson } from "../schema/validate-json.ts";
import { childPath } from "../sdk/json-path.ts";
import { closestField } from "./closest-field.ts";
import type { LwirFindingCode } from "./finding-codes.ts";
import type { FindingSink } from "./findings-sink.ts";
import { isTemplate } from "./template.ts";

/**
 * Checks a tool.call's `with.input` against the tool's input schema as far as a plan can be
 * checked before it runs: the field names (unknown ones when the schema is closed, missing
 * required ones) and every literal value. A value with a template is only known at run time.
 */
export function checkToolInput(sink: FindingSink, input: unknown, tool: ToolDescriptor, path: string): void {
  checkCallInput(sink, input, { what: `tool "${tool.id}"`, schema: tool.inputSchema, code: "binding.tool_input_mismatch" }, path);
}

/** What a call's input is checked against: the callee named in messages, its input schema and the finding code. */
export type CallTarget = { readonly what: string; readonly schema: JsonSchema; readonly code: LwirFindingCode };

/** {@link checkToolInput} for any call with an input schema (a tool, a workflow.run's callee). */
export function checkCallInput(sink: FindingSink, input: unknown, target: CallTarget, path: string): void {
  const { what, code } = target;
  const schema = target.schema as Exclude<JsonSchema, boolean>;
  if (typeof schema !== "object" || schema === null) return;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const fields = names.map((n) => (required.includes(n) ? n : `${n}?`)).join(", ");
  const at = `${path}.with.input`;
  if (input === undefined) {
    if (required.length > 0) sink.error(code, at, `${what} needs an input with ${required.join(", ")} (its fields: ${fields})`);
    return;
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) return;
  const given = input as Record<string, unknown>;
  const closed = schema.additionalProperties === false;
  for (const key of Object.keys(given)) {
    if (names.includes(key) || !closed) continue;
    const guess = closestField(key, names);
    sink.error(code, at, `${what} takes no input field "${key}"${guess ? `; did you mean "${guess}"?` : ""} (its fields: ${fields})`);
  }
  const missing = required.filter((r) => !(r in given));
  if (missing.length > 0)
    sink.error(code, at, `${what} needs input field${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (its fields: ${fields})`);
  for (const [key, value] of Object.entries(given)) {
    const property = properties[key];
    if (property === undefined || containsTemplate(value)) continue;
    const result = validateJson(property, value, code);
    if (!result.valid)
      sink.error(
        code,
        childPath(at, key),
        `input field "${key}" of ${what} does not match its schema: ${result.findings.map((f) => f.message).join("; ")}`,
      );
  }
}

function containsTemplate(value: unknown): boolean {
  if (typeof value === "string") return isTemplate(value);
  if (Array.isArray(value)) return value.some(containsTemplate);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsTemplate);
  return false;
}
