/**
 * @module Whether a value of an inferred template type can ever be accepted by the JSON Schema it
 * lands in. Only a definite mismatch is reported (no value of the type is accepted); a type that
 * may or may not fit (a `number` for an `integer`, a string for an enum) passes, since the run
 * validates the value anyway and a plan-time finding must never be a false alarm.
 */
import { describeType, type TemplateType, typeOfSchema } from "./template-types.ts";

const MAX_DEPTH = 24;

/** Why no value of `ty` fits `schema`, or null when some value may. */
export function mismatchOf(ty: TemplateType, schema: unknown, depth = 0): string | null {
  if (depth > MAX_DEPTH || ty.kind === "any" || typeof schema !== "object" || schema === null || Array.isArray(schema)) return null;
  const s = schema as Record<string, unknown>;
  if (s.$ref !== undefined || s.not !== undefined || s.if !== undefined) return null;
  if (ty.kind === "union") {
    const reasons = ty.members.map((m) => mismatchOf(m, schema, depth + 1));
    return reasons.every((r) => r !== null) ? (reasons[0] as string) : null;
  }
  if (Array.isArray(s.allOf)) {
    for (const part of s.allOf) {
      const reason = mismatchOf(ty, part, depth + 1);
      if (reason) return reason;
    }
  }
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (alternatives && alternatives.length > 0) {
    const reasons = alternatives.map((a) => mismatchOf(ty, a, depth + 1));
    if (reasons.every((r) => r !== null)) return `${describeType(ty)} where ${describeType(typeOfSchema(schema))} is expected`;
  }
  const allowed = allowedKinds(s);
  if (allowed && !kindAllowed(ty, allowed)) return `${describeType(ty)} where ${describeType(typeOfSchema(schema))} is expected`;
  if (ty.kind === "string" && ty.values && (Array.isArray(s.enum) || Object.hasOwn(s, "const"))) {
    const accepted = Array.isArray(s.enum) ? s.enum : [s.const];
    if (!ty.values.some((v) => accepted.includes(v)))
      return `${describeType(ty)} where one of ${accepted.map((v) => JSON.stringify(v)).join(", ")} is expected`;
  }
  if (ty.kind === "object") return objectMismatch(ty, s, depth);
  if (ty.kind === "array" && typeof s.items === "object" && s.items !== null) {
    const reason = mismatchOf(ty.items, s.items, depth + 1);
    return reason ? `an item: ${reason}` : null;
  }
  return null;
}

function objectMismatch(ty: Extract<TemplateType, { kind: "object" }>, s: Record<string, unknown>, depth: number): string | null {
  const properties = typeof s.properties === "object" && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [];
  for (const key of required) {
    if (!Object.hasOwn(ty.fields, key) && ty.rest === "closed")
      return `${describeType(ty)}, which has no field "${key}" (required by the field it lands in)`;
  }
  for (const [key, field] of Object.entries(ty.fields)) {
    if (Object.hasOwn(properties, key)) {
      const reason = mismatchOf(field.ty, properties[key], depth + 1);
      if (reason) return `field "${key}": ${reason}`;
    } else if (s.additionalProperties === false && field.required && s.patternProperties === undefined) {
      return `${describeType(ty)}, whose field "${key}" the schema it lands in does not allow`;
    }
  }
  return null;
}

type Kind = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** The JSON types a schema admits, or undefined when it does not restrict them. */
function allowedKinds(s: Record<string, unknown>): ReadonlySet<Kind> | undefined {
  if (typeof s.type === "string") return new Set([s.type as Kind]);
  if (Array.isArray(s.type)) return new Set(s.type as Kind[]);
  const values = Array.isArray(s.enum) ? s.enum : Object.hasOwn(s, "const") ? [s.const] : undefined;
  if (values) return new Set(values.map(kindOfValue));
  return undefined;
}

function kindOfValue(v: unknown): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as Kind;
}

function kindAllowed(ty: TemplateType, allowed: ReadonlySet<Kind>): boolean {
  switch (ty.kind) {
    case "number":
      // A number may be integral, so it can still fit an integer field.
      return allowed.has("number") || allowed.has("integer");
    case "any":
    case "union":
      return true;
    default:
      return allowed.has(ty.kind);
  }
}
