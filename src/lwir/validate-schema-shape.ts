import type { FindingSink } from "./findings-sink.ts";

const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/**
 * Checks that a value is usable as a JSON Schema: an object or boolean whose `type`, if present,
 * names JSON types. Returns the schema's declared type when it has exactly one.
 */
export function checkSchemaShape(sink: FindingSink, schema: unknown, path: string): string | undefined | null {
  if (typeof schema === "boolean") return undefined;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    sink.error("schema.invalid", path, `${path} must be a JSON Schema object or boolean`);
    return null;
  }
  const type = (schema as { type?: unknown }).type;
  if (type === undefined) return undefined;
  const types = Array.isArray(type) ? type : [type];
  if (types.length === 0 || !types.every((t) => typeof t === "string" && JSON_TYPES.has(t))) {
    sink.error("schema.invalid", `${path}.type`, `${path}.type must name JSON types (${[...JSON_TYPES].join(", ")})`);
    return null;
  }
  return types.length === 1 ? (types[0] as string) : undefined;
}
