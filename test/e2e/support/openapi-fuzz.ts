/**
 * Request generation and response checking from an OpenAPI 3.1 document, for the API fuzz test:
 * valid values drawn from each operation's own schemas, and mutations of them (wrong types, huge
 * values, unicode, missing and extra fields, bad path ids, repeated query parameters).
 */
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";

export type Schema = { readonly [key: string]: unknown };
export type Parameter = {
  readonly name: string;
  readonly in: "path" | "query" | "header";
  readonly required?: boolean;
  readonly schema?: Schema;
};
export type Operation = {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body?: Schema;
  readonly responses: Readonly<Record<string, { readonly schema?: Schema; readonly contentType?: string }>>;
};
export type OpenApiDocument = {
  readonly paths: Record<string, Record<string, Record<string, unknown>>>;
  readonly components?: { readonly schemas?: Record<string, Schema> };
};

/** Inlines `#/components/schemas/X` references (the document has no recursive schemas). */
export function resolveRefs(doc: OpenApiDocument, value: unknown, depth = 0): unknown {
  if (depth > 40) return {};
  if (Array.isArray(value)) return value.map((v) => resolveRefs(doc, v, depth + 1));
  if (typeof value !== "object" || value === null) return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    const name = ref.replace("#/components/schemas/", "");
    return resolveRefs(doc, doc.components?.schemas?.[name] ?? {}, depth + 1);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(doc, v, depth + 1)]));
}

/** Every operation of the document, with its schemas resolved. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = resolveRefs(doc, raw) as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
      };
      const responses: Record<string, { schema?: Schema; contentType?: string }> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
        responses[status] = { ...(media?.schema ? { schema: media.schema } : {}), ...(contentType ? { contentType } : {}) };
      }
      const body = op.requestBody?.content?.["application/json"]?.schema;
      out.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], ...(body ? { body } : {}), responses });
    }
  }
  return out;
}

const unicode = fc.string({ unit: "grapheme", maxLength: 40 });
const huge = fc.constantFrom("x".repeat(70_000), "9".repeat(400), "💥".repeat(5_000));
/** Values of every JSON type, for "the wrong type here". */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  unicode,
  huge,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.integer(), { maxKeys: 3 }),
);

/** A value valid against `schema` (the subset the API uses). */
export function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 1 });
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return fc.oneof(...union.map((s) => valid(s, depth + 1)));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return fc.oneof(...types.map((type) => validOfType(schema, type, depth)));
}

function validOfType(schema: Schema, type: string | undefined, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string": {
      const max = typeof schema.maxLength === "number" ? Math.min(schema.maxLength, 64) : 64;
      const min = typeof schema.minLength === "number" ? Math.min(schema.minLength, max) : 0;
      return fc.string({ minLength: min, maxLength: max });
    }
    case "integer":
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum : -1_000;
      const max = typeof schema.maximum === "number" ? schema.maximum : 1_000_000;
      return type === "integer" ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(valid(schema.items as Schema | undefined, depth + 1), {
        minLength: typeof schema.minItems === "number" ? schema.minItems : 0,
        maxLength: Math.max(typeof schema.minItems === "number" ? schema.minItems : 0, 3),
      });
    case "object":
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0)
        return type === "object"
          ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
          : fc.jsonValue({ maxDepth: 1 });
      const required = new Set((schema.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) record[key] = valid(child, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** A value that breaks `schema` one way: a wrong type, a missing required field, an extra field, a huge or unicode value. */
export function mutated(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const keys = Object.keys(properties);
  const options: fc.Arbitrary<unknown>[] = [wrongType];
  if (keys.length > 0) {
    const base = valid(schema) as fc.Arbitrary<Record<string, unknown>>;
    options.push(
      fc.tuple(base, fc.constantFrom(...keys), wrongType).map(([v, k, w]) => ({ ...v, [k]: w })),
      fc.tuple(base, fc.constantFrom(...keys)).map(([v, k]) => {
        const copy = { ...v };
        delete copy[k];
        return copy;
      }),
      fc.tuple(base, fc.string({ minLength: 1, maxLength: 12 }), wrongType).map(([v, k, w]) => ({ ...v, [`x_${k}`]: w })),
    );
  }
  return fc.oneof(...options);
}

/** A path id: a real one, or junk (unicode, huge, traversal, empty-ish). */
export function pathValue(real: readonly string[]): fc.Arbitrary<string> {
  const junk = fc.oneof(
    unicode,
    fc.constantFrom("..", "%2e%2e", "a/b", " ", "null", "sha256:", "wfver_", "x".repeat(3_000)),
    fc.string({ unit: "binary", maxLength: 30 }),
  );
  return real.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 3 }, { arbitrary: junk, weight: 2 }) : junk;
}

/** A query value for a parameter: valid, a wrong type, or repeated. Waits stay short so the fuzz keeps moving. */
export function queryValues(p: Parameter): fc.Arbitrary<string[] | undefined> {
  if (p.name === "wait") return fc.constantFrom(undefined, ["0"], ["-1"], ["abc"], ["1e309"], ["0", "0"]);
  const valids = valid(p.schema).map((v) => [typeof v === "string" ? v : JSON.stringify(v)]);
  const wrong = fc.oneof(
    wrongType.map((v) => [typeof v === "string" ? v : JSON.stringify(v)]),
    fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 200 }),
    fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 150 }).map((a) => [a.join(",")]),
  );
  return fc.oneof(fc.constant(undefined), valids, wrong);
}

/** Compiled response validators, one per schema. */
export class ResponseChecker {
  private readonly cache = new Map<Schema, Validator>();

  /** The errors of `body` against `schema` (empty when valid). */
  errors(schema: Schema, body: unknown): string[] {
    let validator = this.cache.get(schema);
    if (!validator) {
      validator = new Validator(schema as Record<string, unknown>, "2020-12", false);
      this.cache.set(schema, validator);
    }
    return validator.validate(body).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
  }
}
