import { UnsupportedSchemaError } from "../sdk/errors/unsupported-schema-error.ts";
import { type JsonSchema, normalizeJsonSchema, normalizeSchema, SCHEMA_NORMALIZER, type SchemaNormalizerId } from "./normalize-schema.ts";

/** The output modes a step or a workflow can request. */
export const OUTPUT_MODES = ["text", "object", "array", "choice", "json"] as const;
export type OutputModeName = (typeof OUTPUT_MODES)[number];

/**
 * The closed output descriptor. For `array` the schema describes the whole array (`type: "array"`
 * with `items`), so a step's output is always validated against one schema.
 */
export type NormalizedOutputMode =
  | { readonly mode: "text" }
  | { readonly mode: "object"; readonly schema: JsonSchema }
  | { readonly mode: "array"; readonly schema: JsonSchema }
  | { readonly mode: "choice"; readonly values: readonly string[] }
  | { readonly mode: "json"; readonly schema?: JsonSchema };

type AiSdkOutputLike = { name: string; responseFormat: PromiseLike<unknown>; parseCompleteOutput: unknown };

/**
 * Funnels a workflow or step output declaration into a {@link NormalizedOutputMode}. Accepts a
 * schema (zod, AI SDK, JSON Schema; the mode follows its `type`), an AI SDK `Output.*` helper, or
 * an explicit `{ mode, schema | values }` descriptor.
 *
 * @example
 * await normalizeOutputMode(Output.choice({ options: ["low", "high"] }), "step.output")
 * // { mode: "choice", values: ["low", "high"] }
 */
export async function normalizeOutputMode(
  input: unknown,
  where: string,
  normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER,
): Promise<NormalizedOutputMode> {
  if (isAiSdkOutput(input)) return fromAiSdkOutput(input, where, normalizer);
  if (isExplicitMode(input)) return fromExplicit(input, where, normalizer);
  const { schema } = await normalizeSchema(input, "output", where, normalizer);
  return modeForSchema(schema);
}

/** The mode a bare schema implies: objects and arrays keep their mode, anything else is `json`. */
export function modeForSchema(schema: JsonSchema): NormalizedOutputMode {
  if (typeof schema === "object" && schema.type === "object") return { mode: "object", schema };
  if (typeof schema === "object" && schema.type === "array") return { mode: "array", schema };
  return { mode: "json", schema };
}

/** The JSON Schema an output must satisfy, or undefined when any JSON value is acceptable. */
export function schemaOfOutputMode(output: NormalizedOutputMode): JsonSchema | undefined {
  switch (output.mode) {
    case "text":
      return { type: "string" };
    case "choice":
      return { type: "string", enum: [...output.values] };
    case "object":
    case "array":
      return output.schema;
    case "json":
      return output.schema;
  }
}

function isAiSdkOutput(input: unknown): input is AiSdkOutputLike {
  return (
    typeof input === "object" &&
    input !== null &&
    typeof (input as AiSdkOutputLike).name === "string" &&
    typeof (input as AiSdkOutputLike).parseCompleteOutput === "function" &&
    typeof (input as { responseFormat?: { then?: unknown } }).responseFormat?.then === "function"
  );
}

function isExplicitMode(input: unknown): input is { mode: unknown } {
  return typeof input === "object" && input !== null && !Array.isArray(input) && "mode" in input;
}

async function fromAiSdkOutput(output: AiSdkOutputLike, where: string, normalizer: SchemaNormalizerId): Promise<NormalizedOutputMode> {
  const format = (await output.responseFormat) as { type?: string; schema?: Record<string, unknown> };
  const schema = format.schema;
  switch (output.name) {
    case "text":
      return { mode: "text" };
    case "json":
      return { mode: "json" };
    case "object":
      return { mode: "object", schema: normalizeJsonSchema(schema, where, normalizer) };
    case "array": {
      const elements = (schema?.properties as Record<string, unknown> | undefined)?.elements;
      return { mode: "array", schema: normalizeJsonSchema(elements, where, normalizer) };
    }
    case "choice": {
      const result = (schema?.properties as Record<string, { enum?: unknown }> | undefined)?.result;
      return { mode: "choice", values: choiceValues(result?.enum, where) };
    }
    default:
      throw new UnsupportedSchemaError(where, `unknown AI SDK output "${output.name}"`);
  }
}

async function fromExplicit(input: { mode: unknown }, where: string, normalizer: SchemaNormalizerId): Promise<NormalizedOutputMode> {
  const spec = input as { mode: unknown; schema?: unknown; values?: unknown };
  switch (spec.mode) {
    case "text":
      return { mode: "text" };
    case "choice":
      return { mode: "choice", values: choiceValues(spec.values, where) };
    case "json":
      return spec.schema === undefined
        ? { mode: "json" }
        : { mode: "json", schema: (await normalizeSchema(spec.schema, "output", where, normalizer)).schema };
    case "object":
    case "array": {
      if (spec.schema === undefined) throw new UnsupportedSchemaError(where, `output mode "${spec.mode}" needs a schema`);
      const { schema } = await normalizeSchema(spec.schema, "output", where, normalizer);
      // Same rule as LWIR's output.schema_mode_mismatch: the schema describes the whole value.
      if (typeof schema !== "object" || schema.type !== spec.mode) {
        throw new UnsupportedSchemaError(where, `output mode "${spec.mode}" needs a schema with type "${spec.mode}"`);
      }
      return { mode: spec.mode, schema };
    }
    default:
      throw new UnsupportedSchemaError(
        where,
        `unknown output mode ${JSON.stringify(spec.mode)}; expected one of ${OUTPUT_MODES.join(", ")}`,
      );
  }
}

function choiceValues(values: unknown, where: string): string[] {
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    !values.every((v) => typeof v === "string" && v !== "") ||
    new Set(values).size !== values.length
  ) {
    throw new UnsupportedSchemaError(where, "a choice output needs a non-empty list of distinct, non-empty string values");
  }
  return [...values];
}
