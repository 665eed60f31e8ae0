import { toJSONSchema, type ZodType } from "zod";
import { assertCanonicalizable, type JsonValue } from "../json/canonical-json.ts";
import { type Digest, digestJson } from "../json/digest.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { LiveValidatorRejectedError } from "../sdk/errors/live-validator-rejected-error.ts";
import { UnsupportedSchemaError } from "../sdk/errors/unsupported-schema-error.ts";
import { pathOf } from "../sdk/json-path.ts";
import { orderFreeSchema } from "./order-free-keywords.ts";

/** A JSON Schema document as plain data (an object, or `true`/`false`). */
export type JsonSchema = { [key: string]: JsonValue } | boolean;

/**
 * The closed form every schema is funnelled into: plain JSON Schema data and its digest. Nothing
 * executable survives normalization.
 */
export type NormalizedSchemaDescriptor = {
  readonly kind: "json-schema";
  readonly schema: JsonSchema;
  readonly hash: Digest;
};

/**
 * How schemas are normalized before hashing. `@1` kept `required` (and every object's keys) in the
 * order zod declared the fields; `@2` is order-free ({@link orderFreeSchema}). A run records the
 * normalizer it started with (`RunRequested.schemaNormalizer`; absent = `@1`) and keeps it for
 * life, so runs started before `@2` still re-derive their manifests and locks (docs/identity.md).
 */
export type SchemaNormalizerId = "little-workflow-schema@1" | "little-workflow-schema@2";

/** The normalizer new runs, definition listings and approvals use. */
export const SCHEMA_NORMALIZER: SchemaNormalizerId = "little-workflow-schema@2";

/** The normalizer of a run whose `RunRequested` names none (started before `@2`). */
export const LEGACY_SCHEMA_NORMALIZER: SchemaNormalizerId = "little-workflow-schema@1";

/** What `normalizeSchema` accepts: zod 4, AI SDK `jsonSchema()`/`zodSchema()`, or JSON Schema. */
export type SchemaInput = ZodType | { readonly jsonSchema: unknown } | JsonSchema;

/** Whether a schema describes data coming in (zod defaults make fields optional) or going out. */
export type SchemaDirection = "input" | "output";

/**
 * Normalizes any supported schema form into a {@link NormalizedSchemaDescriptor}.
 *
 * @example
 * const d = await normalizeSchema(z.object({ id: z.string() }), "input", "workflow.input");
 * d.schema // { type: "object", properties: { id: { type: "string" } }, required: ["id"], ... }
 */
export async function normalizeSchema(
  input: unknown,
  direction: SchemaDirection,
  where: string,
  normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER,
): Promise<NormalizedSchemaDescriptor> {
  const schema = normalizeJsonSchema(await toJsonSchemaData(input, direction, where), where, normalizer);
  return { kind: "json-schema", schema, hash: digestJson(schema) };
}

/**
 * Normalizes plain JSON Schema data (e.g. a schema a planner wrote into LWIR) so that two
 * spellings of the same schema hash alike: the top-level `$schema` dialect marker is dropped, and
 * with `@2` the order of object keys and of `required` names no longer matters.
 */
export function normalizeJsonSchema(value: unknown, where: string, normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER): JsonSchema {
  if (typeof value === "boolean") return value;
  if (typeof value === "function") throw new LiveValidatorRejectedError(where);
  if (!isPlainObject(value)) {
    throw new UnsupportedSchemaError(where, "a JSON Schema must be an object or a boolean");
  }
  try {
    assertCanonicalizable(value);
  } catch (error) {
    if (LittleError.is(error) && "path" in error) {
      const path = String((error as { path: unknown }).path);
      if ((error as { reason?: unknown }).reason === "function") {
        throw new LiveValidatorRejectedError(where, `function at ${path}`);
      }
      throw new UnsupportedSchemaError(where, `not plain JSON data: ${error.message}`);
    }
    throw error;
  }
  const { $schema: _dialect, ...rest } = value;
  const schema = rest as { [key: string]: JsonValue };
  return normalizer === LEGACY_SCHEMA_NORMALIZER ? schema : (orderFreeSchema(schema) as { [key: string]: JsonValue });
}

/** Digest of a plain JSON Schema after {@link normalizeJsonSchema}. */
export function hashJsonSchema(value: unknown, where: string, normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER): Digest {
  return digestJson(normalizeJsonSchema(value, where, normalizer));
}

async function toJsonSchemaData(input: unknown, direction: SchemaDirection, where: string): Promise<unknown> {
  if (typeof input === "function") throw new LiveValidatorRejectedError(where);
  if (input === null || typeof input !== "object") {
    if (typeof input === "boolean") return input;
    throw new UnsupportedSchemaError(where, `expected a schema, got ${input === null ? "null" : typeof input}`);
  }
  if ("_zod" in input) {
    try {
      // zod's converter silently drops `.refine()`/`.superRefine()`/`.check()` code; refuse it instead.
      const override = ({ zodSchema, path }: { zodSchema: unknown; path: (string | number)[] }) => {
        if (hasCustomCheck(zodSchema)) throw new LiveValidatorRejectedError(where, `a zod refinement at schema path ${pathOf(path)}`);
      };
      return toJSONSchema(input as ZodType, { target: "draft-2020-12", io: direction, unrepresentable: "throw", override });
    } catch (error) {
      if (LittleError.is(error)) throw error;
      throw new UnsupportedSchemaError(
        where,
        `this zod schema has no JSON Schema form (${error instanceof Error ? error.message : String(error)}); transforms, refinements with code and custom types cannot be locked`,
      );
    }
  }
  if ("_def" in input && "safeParse" in input) {
    throw new UnsupportedSchemaError(where, 'zod 3 schemas are not supported; use zod 4 (import { z } from "zod")');
  }
  if ("jsonSchema" in input && isAiSdkSchema(input)) {
    const resolved = await (input as { jsonSchema: unknown }).jsonSchema;
    if (typeof resolved === "function") throw new LiveValidatorRejectedError(where);
    return resolved;
  }
  if ("~standard" in input) {
    throw new UnsupportedSchemaError(where, "Standard Schema objects without a JSON Schema form are not supported");
  }
  return input;
}

/** True for a zod schema carrying a refinement with code (zod marks those checks `custom`). */
function hasCustomCheck(zodSchema: unknown): boolean {
  const checks = (zodSchema as { _zod?: { def?: { checks?: unknown } } })?._zod?.def?.checks;
  return Array.isArray(checks) && checks.some((c) => (c as { _zod?: { def?: { check?: unknown } } })?._zod?.def?.check === "custom");
}

/** AI SDK `Schema` objects carry a symbol marker; `jsonSchema` may be a promise. */
function isAiSdkSchema(input: object): boolean {
  return Object.getOwnPropertySymbols(input).some((s) => s.description === "vercel.ai.schema");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
