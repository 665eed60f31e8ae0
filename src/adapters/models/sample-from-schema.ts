import { digestJson, digestPrefix } from "../../json/digest.ts";

type Schema = Record<string, unknown> | boolean;

/**
 * A deterministic value that satisfies a JSON Schema (the subset models are asked for: objects,
 * arrays, enums, consts, strings with length bounds, numbers with bounds, booleans, null,
 * anyOf/oneOf). Text is derived from `seed` so different prompts give different answers.
 */
export function sampleFromSchema(schema: Schema | undefined, seed: string, path = "$"): unknown {
  if (schema === undefined || schema === true || schema === false) return `offline value for ${path}`;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[pick(seed, path, schema.enum.length)];
  if ("const" in schema) return schema.const;
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return sampleFromSchema(union[0], seed, path);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? schema.type[0]) : schema.type;
  switch (type) {
    case "object":
      return sampleObject(schema, seed, path);
    case "array": {
      const count = Math.max(typeof schema.minItems === "number" ? schema.minItems : 1, 1);
      const limited = typeof schema.maxItems === "number" ? Math.min(count, schema.maxItems) : count;
      return Array.from({ length: limited }, (_, i) => sampleFromSchema(schema.items as Schema | undefined, seed, `${path}[${i}]`));
    }
    case "integer":
    case "number": {
      const min =
        typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 0;
      const max = typeof schema.maximum === "number" ? schema.maximum : min + 10;
      const value = min + (pick(seed, path, 1000) / 1000) * (max - min);
      return type === "integer" ? Math.ceil(Math.min(value, max)) : Math.round(value * 100) / 100;
    }
    case "boolean":
      return pick(seed, path, 2) === 1;
    case "null":
      return null;
    default:
      if (schema.properties) return sampleObject(schema, seed, path);
      return sampleString(schema, seed, path);
  }
}

function sampleObject(schema: Record<string, unknown>, seed: string, path: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(properties)) out[key] = sampleFromSchema(child, seed, `${path}.${key}`);
  return out;
}

function sampleString(schema: Record<string, unknown>, seed: string, path: string): string {
  const field = path.split(".").pop() ?? "value";
  const gist = seed.replace(/\s+/g, " ").trim().slice(0, 160);
  let text = `Offline ${field}: ${gist}`;
  if (typeof schema.maxLength === "number") text = text.slice(0, schema.maxLength);
  if (typeof schema.minLength === "number" && text.length < schema.minLength) text = text.padEnd(schema.minLength, ".");
  return text;
}

function pick(seed: string, path: string, n: number): number {
  return Number.parseInt(digestPrefix(digestJson([seed, path]), 8), 16) % n;
}
