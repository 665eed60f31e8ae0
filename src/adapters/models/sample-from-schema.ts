import { digestJson, digestPrefix } from "../../json/digest.ts";
import type { JsonSchema } from "../../schema/normalize-schema.ts";
import { validateJson } from "../../schema/validate-json.ts";
import type { ShownValues } from "./offline-prompt-values.ts";

type Schema = Record<string, unknown> | boolean;

const NONE: ShownValues = new Map();

/**
 * A deterministic value that satisfies a JSON Schema (the subset models are asked for: objects,
 * arrays, enums, consts, strings with length bounds, numbers with bounds, booleans, null,
 * anyOf/oneOf). An object property whose name the prompt showed a fitting value for (`shown`,
 * e.g. a tool's result) takes that value; anything else is a placeholder that reads as one:
 * `"offline:noteId"` for a string, a small number within the bounds. Choices (enums, booleans)
 * derive from `seed`, so different prompts can give different answers.
 */
export function sampleFromSchema(schema: Schema | undefined, seed: string, path = "$", shown: ShownValues = NONE): unknown {
  if (schema === undefined || schema === true || schema === false) return placeholder(path);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[pick(seed, path, schema.enum.length)];
  if ("const" in schema) return schema.const;
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return sampleFromSchema(union[0], seed, path, shown);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? schema.type[0]) : schema.type;
  switch (type) {
    case "object":
      return sampleObject(schema, seed, path, shown);
    case "array": {
      const count = Math.max(typeof schema.minItems === "number" ? schema.minItems : 1, 1);
      const limited = typeof schema.maxItems === "number" ? Math.min(count, schema.maxItems) : count;
      return Array.from({ length: limited }, (_, i) => sampleFromSchema(schema.items as Schema | undefined, seed, `${path}[${i}]`, shown));
    }
    case "integer":
    case "number":
      return sampleNumber(schema, type, seed, path);
    case "boolean":
      return pick(seed, path, 2) === 1;
    case "null":
      return null;
    default:
      if (schema.properties) return sampleObject(schema, seed, path, shown);
      return sampleString(schema, path);
  }
}

function sampleObject(schema: Record<string, unknown>, seed: string, path: string, shown: ShownValues): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(properties)) {
    const given = (shown.get(key) ?? []).find((value) => validateJson(child as JsonSchema, value).valid);
    out[key] = given !== undefined ? given : sampleFromSchema(child, seed, `${path}.${key}`, shown);
  }
  return out;
}

/**
 * Small and deterministic (0 to 10 when the bounds allow): a zod `int()` carries the bounds of a
 * safe integer, and a random 15-digit number looks like data rather than a stand-in.
 */
function sampleNumber(schema: Record<string, unknown>, type: "integer" | "number", seed: string, path: string): number {
  const lower =
    typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 0;
  const upper =
    typeof schema.maximum === "number"
      ? schema.maximum
      : typeof schema.exclusiveMaximum === "number"
        ? schema.exclusiveMaximum - 1
        : lower + 10;
  const min = lower < 0 && upper >= 0 ? 0 : lower;
  const max = Math.min(upper, min + 10);
  const value = min + (pick(seed, path, 1000) / 1000) * (max - min);
  return type === "integer" ? Math.min(Math.ceil(value), Math.floor(upper)) : Math.round(value * 100) / 100;
}

function sampleString(schema: Record<string, unknown>, path: string): string {
  let text = placeholder(path);
  if (typeof schema.maxLength === "number") text = text.slice(0, schema.maxLength);
  if (typeof schema.minLength === "number" && text.length < schema.minLength) text = text.padEnd(schema.minLength, ".");
  return text;
}

/** `offline:<field>`: what the offline model writes where a tool or the world would supply a value. */
function placeholder(path: string): string {
  const field = path.slice(path.lastIndexOf(".") + 1).replace(/^\$/, "");
  return `offline:${field || "value"}`;
}

function pick(seed: string, path: string, n: number): number {
  return Number.parseInt(digestPrefix(digestJson([seed, path]), 8), 16) % n;
}
