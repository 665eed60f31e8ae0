import { Validator } from "@cfworker/json-schema";
import type { Finding } from "../sdk/finding.ts";
import { pathOf } from "../sdk/json-path.ts";
import type { JsonSchema } from "./normalize-schema.ts";

/** The result of checking a value against a JSON Schema. */
export type JsonValidationResult = { readonly valid: boolean; readonly findings: readonly Finding[] };

// Keywords that only report that a child failed; the child's own error says what is wrong.
const CONTAINER_KEYWORDS = new Set(["properties", "items", "prefixItems", "$ref", "allOf", "dependentSchemas", "then", "else"]);

const validators = new WeakMap<object, Validator>();

/**
 * Validates a value against JSON Schema (2020-12) with `@cfworker/json-schema`, which runs in
 * workerd (Ajv's code generation does not). Every failure becomes a finding with the given code.
 *
 * @example
 * validateJson({ type: "string" }, 3).findings[0]
 * // { severity: "error", code: "schema.invalid_value", path: "$", message: "Instance type ..." }
 */
export function validateJson(schema: JsonSchema, value: unknown, code = "schema.invalid_value"): JsonValidationResult {
  if (schema === true) return { valid: true, findings: [] };
  const validator = validatorFor(schema);
  const result = validator.validate(value);
  if (result.valid) return { valid: true, findings: [] };
  const leaves = result.errors.filter((e) => !CONTAINER_KEYWORDS.has(e.keyword));
  const units = leaves.length > 0 ? leaves : result.errors;
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const unit of units) {
    const path = pointerToPath(unit.instanceLocation);
    const key = `${path}\u0000${unit.error}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push({ severity: "error", code, path, message: unit.error });
  }
  return { valid: false, findings };
}

function validatorFor(schema: Exclude<JsonSchema, true>): Validator {
  if (schema === false) return new Validator(false, "2020-12", false);
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema, "2020-12", false);
    validators.set(schema, validator);
  }
  return validator;
}

/** `#/a/0/b~1c` → `$.a[0]["b/c"]` */
export function pointerToPath(pointer: string): string {
  const body = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (body === "" || body === "/") return "$";
  const parts = body
    .split("/")
    .slice(1)
    .map((raw) => decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~"));
  return pathOf(parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
}
