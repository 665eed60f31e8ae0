import type { JsonValue } from "../json/canonical-json.ts";

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = new Set([
  "additionalItems",
  "additionalProperties",
  "contains",
  "contentSchema",
  "else",
  "if",
  "items",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Keywords whose value is a list of subschemas, in an order that is kept (see below). */
const SCHEMA_LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["$defs", "definitions", "dependentSchemas", "patternProperties", "properties"]);

type JsonObject = { [key: string]: JsonValue };

/**
 * The order-free form of a JSON Schema (schema normalizer `little-workflow-schema@2`): every
 * object's keys in canonical order, and the keywords that name a *set* of property names sorted —
 * `required`, each list of `dependentRequired`, and the name lists of draft-07 `dependencies`.
 * Declaring the same zod fields in another order therefore gives the same schema, byte for byte.
 *
 * Arrays whose order is kept: `enum` and `const`/`default`/`examples` (data, never rewritten;
 * `enum` order is the option list a model is shown), `anyOf`/`oneOf`/`allOf` (validation ignores
 * it, but zod unions parse first-match and providers show the branches in order), `prefixItems`
 * (positional), `type` lists (never a product of field order; sorting them would move the
 * hash of hand-written schemas for nothing) and unknown keywords such as Gemini's
 * `propertyOrdering` (whose order is its meaning). docs/identity.md has the reasoning.
 *
 * Only positions that hold schemas are walked, so a property *named* `required`, or a `default`
 * that happens to contain a `required` array, is left as written.
 *
 * @example
 * orderFreeSchema({ type: "object", required: ["b", "a"], properties: { b: {}, a: {} } })
 * // { properties: { a: {}, b: {} }, required: ["a", "b"], type: "object" }
 */
export function orderFreeSchema(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const key of Object.keys(schema).sort(byCodeUnits)) {
    put(out, key, orderFreeKeyword(key, schema[key] as JsonValue));
  }
  return out;
}

function orderFreeKeyword(key: string, value: JsonValue): JsonValue {
  if (key === "required" && isNameList(value)) return [...value].sort(byCodeUnits);
  if ((key === "dependentRequired" || key === "dependencies") && isObject(value)) {
    // dependentRequired: name → names; draft-07 dependencies: name → names or a subschema.
    return mapSorted(value, (v) => (isNameList(v) ? [...v].sort(byCodeUnits) : orderFreeSchema(v)));
  }
  if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) return mapSorted(value, orderFreeSchema);
  if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) return value.map(orderFreeSchema);
  if (SCHEMA_KEYWORDS.has(key)) return orderFreeSchema(value);
  return canonicalData(value);
}

/** Data inside a schema (`enum`, `const`, `default`, unknown keywords): keys reordered, arrays kept. */
function canonicalData(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonicalData);
  if (!isObject(value)) return value;
  return mapSorted(value, canonicalData);
}

function mapSorted(value: JsonObject, f: (v: JsonValue) => JsonValue): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort(byCodeUnits)) put(out, key, f(value[key] as JsonValue));
  return out;
}

/** Defines rather than assigns, so a key named `__proto__` stays a key. */
function put(out: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Canonical JSON's key order (UTF-16 code units), also used for the name sets. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isNameList(value: JsonValue): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
