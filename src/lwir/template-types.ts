/**
 * @module The types the static template pass works with: a small lattice read from JSON Schema
 * (what a step's output, the input or a tool's input can hold), field access on it, and a short
 * description for findings. Only what the template grammar can observe is modelled; anything a
 * schema says that this cannot (`$ref`, `allOf`, patterns) is `any`, so the pass never guesses.
 */

/** A field of an object type: its type and whether the schema requires it. */
export type FieldType = { readonly ty: TemplateType; readonly required: boolean };

/** What a template expression can evaluate to, as far as the schemas it reads say. */
export type TemplateType =
  | { readonly kind: "any" }
  | { readonly kind: "null" }
  | { readonly kind: "boolean" }
  | { readonly kind: "number"; readonly integer: boolean }
  | { readonly kind: "string"; readonly values?: readonly string[] }
  | { readonly kind: "array"; readonly items: TemplateType }
  | {
      readonly kind: "object";
      readonly fields: Readonly<Record<string, FieldType>>;
      /** `closed`: no other field exists; `implicit`: the schema says nothing (others may exist); else their type. */
      readonly rest: "closed" | "implicit" | TemplateType;
    }
  | { readonly kind: "union"; readonly members: readonly TemplateType[] };

export const ANY: TemplateType = { kind: "any" };
export const STRING: TemplateType = { kind: "string" };
export const BOOLEAN: TemplateType = { kind: "boolean" };
export const INTEGER: TemplateType = { kind: "number", integer: true };

const MAX_DEPTH = 24;

/** A union, flattened; one member stands for itself. */
export function unionOf(members: readonly TemplateType[]): TemplateType {
  const flat = members.flatMap((m) => (m.kind === "union" ? m.members : [m]));
  if (flat.some((m) => m.kind === "any")) return ANY;
  return flat.length === 1 ? (flat[0] as TemplateType) : { kind: "union", members: flat };
}

/** The type a JSON Schema describes (`any` where it says nothing this pass can use). */
export function typeOfSchema(schema: unknown, depth = 0): TemplateType {
  if (depth > MAX_DEPTH || typeof schema !== "object" || schema === null || Array.isArray(schema)) return ANY;
  const s = schema as Record<string, unknown>;
  if (s.$ref !== undefined || s.allOf !== undefined || s.not !== undefined || s.if !== undefined) return ANY;
  if (Object.hasOwn(s, "const")) return typeOfValue(s.const);
  if (Array.isArray(s.enum)) return unionOf(s.enum.map(typeOfValue));
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (alternatives) return alternatives.length === 0 ? ANY : unionOf(alternatives.map((a) => typeOfSchema(a, depth + 1)));
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (types === undefined) return s.properties !== undefined ? objectType(s, depth) : ANY;
  return types.length === 0 ? ANY : unionOf(types.map((t) => typeOfNamed(String(t), s, depth)));
}

function typeOfNamed(type: string, s: Record<string, unknown>, depth: number): TemplateType {
  switch (type) {
    case "string":
      return STRING;
    case "integer":
      return INTEGER;
    case "number":
      return { kind: "number", integer: false };
    case "boolean":
      return BOOLEAN;
    case "null":
      return { kind: "null" };
    case "array":
      return { kind: "array", items: s.prefixItems !== undefined ? ANY : typeOfSchema(s.items, depth + 1) };
    case "object":
      return objectType(s, depth);
    default:
      return ANY;
  }
}

function objectType(s: Record<string, unknown>, depth: number): TemplateType {
  const properties = typeof s.properties === "object" && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
  const fields: Record<string, FieldType> = {};
  for (const [key, value] of Object.entries(properties)) fields[key] = { ty: typeOfSchema(value, depth + 1), required: required.has(key) };
  const extra = s.additionalProperties;
  const rest =
    s.patternProperties !== undefined
      ? ANY
      : extra === false
        ? "closed"
        : extra === undefined || extra === true
          ? "implicit"
          : typeOfSchema(extra, depth + 1);
  return { kind: "object", fields, rest };
}

/** The type of a literal JSON value. */
export function typeOfValue(value: unknown): TemplateType {
  if (value === null) return { kind: "null" };
  if (typeof value === "string") return { kind: "string", values: [value] };
  if (typeof value === "number") return { kind: "number", integer: Number.isInteger(value) };
  if (typeof value === "boolean") return BOOLEAN;
  if (Array.isArray(value)) return { kind: "array", items: value.length === 0 ? ANY : unionOf(value.map(typeOfValue)) };
  if (typeof value === "object") {
    const fields: Record<string, FieldType> = {};
    for (const [k, v] of Object.entries(value as object)) fields[k] = { ty: typeOfValue(v), required: true };
    return { kind: "object", fields, rest: "closed" };
  }
  return ANY;
}

/** Reading one key: the field's type, or why the value has no such field. */
export type Access =
  | { readonly ok: true; readonly ty: TemplateType }
  | { readonly ok: false; readonly closed: boolean; readonly fields: readonly string[]; readonly on: TemplateType };

/** Reads `key` (a property name or an index) from a value of type `ty`. */
export function accessType(ty: TemplateType, key: string | number): Access {
  switch (ty.kind) {
    case "any":
      return { ok: true, ty: ANY };
    case "object": {
      if (typeof key === "string" && Object.hasOwn(ty.fields, key)) return { ok: true, ty: (ty.fields[key] as FieldType).ty };
      if (ty.rest === "closed" || ty.rest === "implicit")
        return { ok: false, closed: ty.rest === "closed", fields: Object.keys(ty.fields), on: ty };
      return { ok: true, ty: ty.rest };
    }
    case "array":
      if (typeof key === "number") return { ok: true, ty: ty.items };
      if (key === "length") return { ok: true, ty: INTEGER };
      return { ok: false, closed: true, fields: ["length"], on: ty };
    case "union": {
      const reads = ty.members.map((m) => accessType(m, key));
      const found = reads.flatMap((r) => (r.ok ? [r.ty] : []));
      if (found.length > 0) return { ok: true, ty: unionOf(found) };
      const misses = reads.filter((r): r is Extract<Access, { ok: false }> => !r.ok);
      return { ok: false, closed: misses.every((m) => m.closed), fields: [...new Set(misses.flatMap((m) => m.fields))], on: ty };
    }
    default:
      return { ok: false, closed: true, fields: [], on: ty };
  }
}

/** A short description for findings: `integer`, `object { refundId, orderId }`, `"low" | "high"`. */
export function describeType(ty: TemplateType, depth = 0): string {
  switch (ty.kind) {
    case "any":
      return "any JSON value";
    case "number":
      return ty.integer ? "integer" : "number";
    case "string":
      return ty.values && ty.values.length <= 6 ? ty.values.map((v) => JSON.stringify(v)).join(" | ") : "string";
    case "array":
      return depth > 1 ? "array" : `array of ${describeType(ty.items, depth + 1)}`;
    case "object": {
      const names = Object.keys(ty.fields);
      return names.length === 0 ? "object" : `object { ${names.slice(0, 6).join(", ")}${names.length > 6 ? ", …" : ""} }`;
    }
    case "union":
      return ty.members.map((m) => describeType(m, depth + 1)).join(" | ");
    default:
      return ty.kind;
  }
}
