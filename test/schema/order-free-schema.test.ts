import { MockLanguageModelV4 } from "ai/test";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ZodType, z } from "zod";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LEGACY_SCHEMA_NORMALIZER, normalizeJsonSchema, normalizeSchema } from "../../src/schema/normalize-schema.ts";
import { orderFreeSchema } from "../../src/schema/order-free-keywords.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";

// Issue 18: declaring the same zod fields in another order must not move a schema's hash (nor the
// definition hash built on it), and every change a validator would see must move it.

type Field = {
  readonly name: string;
  readonly optional: boolean;
  readonly type:
    | { readonly kind: "string"; readonly min?: number; readonly max?: number }
    | { readonly kind: "number"; readonly min?: number }
    | { readonly kind: "boolean" }
    | { readonly kind: "enum"; readonly values: readonly string[] }
    | { readonly kind: "array"; readonly of: "string" | "number" }
    | { readonly kind: "object"; readonly fields: readonly Field[] };
};

// Keyword-like names included on purpose: a property named `required` is not the keyword.
const NAME = fc.oneof(fc.constantFrom("required", "properties", "type", "enum", "items"), fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,7}$/));

const leaf = fc.oneof(
  fc.record({
    kind: fc.constant("string" as const),
    min: fc.option(fc.nat(5), { nil: undefined }),
    max: fc.option(fc.integer({ min: 6, max: 40 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant("number" as const), min: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }) }),
  fc.constant({ kind: "boolean" as const }),
  fc.record({
    kind: fc.constant("enum" as const),
    values: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("array" as const), of: fc.constantFrom("string" as const, "number" as const) }),
);

const fields = (depth: number): fc.Arbitrary<Field[]> =>
  fc.uniqueArray(
    fc.record({
      name: NAME,
      optional: fc.boolean(),
      type:
        depth > 0
          ? fc.oneof(
              { weight: 4, arbitrary: leaf },
              { weight: 1, arbitrary: fields(depth - 1).map((f) => ({ kind: "object" as const, fields: f })) },
            )
          : leaf,
    }),
    { minLength: 1, maxLength: 6, selector: (f) => f.name },
  ) as fc.Arbitrary<Field[]>;

const SHAPE = fields(2);

/** The zod object for `fs`, its fields declared in the order `order` picks (recursively). */
function build(fs: readonly Field[], order: (n: number, depth: number) => number[] = (n) => [...Array(n).keys()], depth = 0): ZodType {
  const shape: Record<string, ZodType> = {};
  for (const i of order(fs.length, depth)) {
    const f = fs[i] as Field;
    const t = typeOf(f.type, order, depth);
    Object.defineProperty(shape, f.name, { value: f.optional ? t.optional() : t, enumerable: true, configurable: true, writable: true });
  }
  return z.object(shape);
}

function typeOf(t: Field["type"], order: (n: number, depth: number) => number[], depth: number): ZodType {
  switch (t.kind) {
    case "string": {
      let s = z.string();
      if (t.min !== undefined) s = s.min(t.min);
      if (t.max !== undefined) s = s.max(t.max);
      return s;
    }
    case "number":
      return t.min === undefined ? z.number() : z.number().min(t.min);
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum(t.values as [string, ...string[]]);
    case "array":
      return z.array(t.of === "string" ? z.string() : z.number());
    case "object":
      return build(t.fields, order, depth + 1);
  }
}

/** A seeded permutation per object level, so a reordering reaches nested objects too. */
function shuffler(seed: number): (n: number, depth: number) => number[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return (n) => {
    const xs = [...Array(n).keys()];
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [xs[i], xs[j]] = [xs[j] as number, xs[i] as number];
    }
    return xs;
  };
}

/** One semantic change at field `at` (modulo the field count) of the top level or its first nested object. */
type Change = "type" | "optional" | "add" | "remove" | "bound";

function changed(fs: readonly Field[], change: Change, at: number): Field[] | null {
  const i = at % fs.length;
  const f = fs[i] as Field;
  const copy = [...fs];
  switch (change) {
    case "type":
      copy[i] = { ...f, type: f.type.kind === "boolean" ? { kind: "string" } : { kind: "boolean" } };
      return copy;
    case "optional":
      copy[i] = { ...f, optional: !f.optional };
      return copy;
    case "add": {
      const name = `${f.name}_added`;
      if (fs.some((g) => g.name === name)) return null;
      return [...copy, { name, optional: at % 2 === 0, type: { kind: "string" } }];
    }
    case "remove":
      return fs.length > 1 ? copy.filter((_, j) => j !== i) : null;
    case "bound":
      if (f.type.kind === "string") copy[i] = { ...f, type: { ...f.type, min: (f.type.min ?? 0) + 1 } };
      else if (f.type.kind === "number") copy[i] = { ...f, type: { ...f.type, min: (f.type.min ?? 0) + 1 } };
      else if (f.type.kind === "enum") copy[i] = { ...f, type: { kind: "enum", values: [...f.type.values, "zzzzzzz"] } };
      else if (f.type.kind === "object") {
        const inner = changed(f.type.fields, "optional", at);
        if (!inner) return null;
        copy[i] = { ...f, type: { kind: "object", fields: inner } };
      } else return null;
      return copy;
  }
}

const hashOf = async (schema: ZodType, direction: "input" | "output" = "output") => (await normalizeSchema(schema, direction, "t")).hash;

describe("schema normalizer @2: field order is not identity", () => {
  it("any reordering of zod object fields (nested too) keeps the schema, byte for byte, and its hash", async () => {
    await fc.assert(
      fc.asyncProperty(SHAPE, fc.integer(), fc.constantFrom("input" as const, "output" as const), async (fs, seed, direction) => {
        const a = await normalizeSchema(build(fs), direction, "t");
        const b = await normalizeSchema(build(fs, shuffler(seed)), direction, "t");
        expect(b.hash).toBe(a.hash);
        // The planner's task shows the schema with JSON.stringify: the text must not move either.
        expect(JSON.stringify(b.schema)).toBe(JSON.stringify(a.schema));
      }),
      { numRuns: 200 },
    );
  });

  it("any semantic change (type, a field added or removed, required-ness, a bound) moves the hash", async () => {
    const changes: Change[] = ["type", "optional", "add", "remove", "bound"];
    await fc.assert(
      fc.asyncProperty(SHAPE, fc.constantFrom(...changes), fc.nat(), fc.integer(), async (fs, change, at, seed) => {
        const next = changed(fs, change, at);
        fc.pre(next !== null);
        // Reordered as well, so order-freedom cannot hide a change.
        expect(await hashOf(build(next as Field[], shuffler(seed)))).not.toBe(await hashOf(build(fs)));
      }),
      { numRuns: 300 },
    );
  });

  it("reordered fields in the input, output and tool schemas keep the definition hash", async () => {
    const definition = (input: ZodType, output: ZodType, toolInput: ZodType) =>
      defineWorkflow({
        id: "order.free",
        description: "d",
        input,
        output,
        models: [model(new MockLanguageModelV4({ provider: "mock", modelId: "m" }), { description: "m" })],
        planner: { model: new MockLanguageModelV4({ provider: "mock", modelId: "p" }), system: "s" },
        tools: { look: tool({ description: "t", inputSchema: toolInput, execute: async () => ({}) }) },
      });
    await fc.assert(
      fc.asyncProperty(SHAPE, SHAPE, fc.integer(), async (fs, gs, seed) => {
        const a = await snapshotDefinition(definition(build(fs), build(gs), build(gs)));
        const order = shuffler(seed);
        const b = await snapshotDefinition(definition(build(fs, order), build(gs, order), build(gs, order)));
        expect(b.definitionHash).toBe(a.definitionHash);
        const c = await snapshotDefinition(definition(build(fs), build(gs), build(changed(gs, "optional", seed >>> 0) as Field[])));
        expect(c.definitionHash).not.toBe(a.definitionHash);
      }),
      { numRuns: 40 },
    );
  });
});

describe("schema normalizer @2: what it sorts and what it keeps", () => {
  it("sorts required, dependentRequired and draft-07 dependencies name lists in every subschema", () => {
    const schema = normalizeJsonSchema(
      {
        type: "object",
        required: ["b", "a"],
        dependentRequired: { a: ["z", "y"] },
        dependencies: { b: ["d", "c"], c: { required: ["q", "p"] } },
        properties: { a: { type: "object", required: ["y", "x"] }, b: { anyOf: [{ required: ["n", "m"] }] } },
        $defs: { d: { items: { required: ["k", "j"] } } },
      },
      "t",
    );
    expect(schema).toEqual({
      $defs: { d: { items: { required: ["j", "k"] } } },
      dependencies: { b: ["c", "d"], c: { required: ["p", "q"] } },
      dependentRequired: { a: ["y", "z"] },
      properties: { a: { required: ["x", "y"], type: "object" }, b: { anyOf: [{ required: ["m", "n"] }] } },
      required: ["a", "b"],
      type: "object",
    });
  });

  it("keeps the order of enum, anyOf/oneOf/allOf, prefixItems, type lists, data (const, default, examples) and unknown keywords", () => {
    const given = {
      enum: ["low", "high", "medium"],
      anyOf: [{ type: "string" }, { type: "number" }],
      oneOf: [{ const: 2 }, { const: 1 }],
      allOf: [{ minimum: 2 }, { maximum: 1 }],
      prefixItems: [{ type: "string" }, { type: "boolean" }],
      type: ["string", "null"],
      default: { required: ["b", "a"] },
      examples: [["b", "a"]],
      const: { list: ["b", "a"] },
      // Gemini's generation-order hint: an unknown keyword, its order is its meaning.
      propertyOrdering: ["b", "a"],
    };
    const schema = normalizeJsonSchema(given, "t") as Record<string, unknown>;
    for (const key of Object.keys(given)) expect(schema[key], key).toEqual(given[key as keyof typeof given]);
  });

  it("leaves a property named required alone and keeps __proto__ a key", () => {
    const properties = JSON.parse('{"required":{"type":"array","items":{"type":"string"}},"__proto__":{"type":"string"}}');
    const schema = orderFreeSchema({ type: "object", properties }) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(["__proto__", "required"]);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
  });

  it("@1 (runs started before @2) keeps the declared order, so their hashes never move", async () => {
    const declared = z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) });
    const legacy = await normalizeSchema(declared, "output", "t", LEGACY_SCHEMA_NORMALIZER);
    expect((legacy.schema as { required: string[] }).required).toEqual(["summary", "severity"]);
    expect(Object.keys((legacy.schema as { properties: object }).properties)).toEqual(["summary", "severity"]);
    const current = await normalizeSchema(declared, "output", "t");
    expect((current.schema as { required: string[] }).required).toEqual(["severity", "summary"]);
    // Where the declared order already is the sorted one, @1 and @2 agree.
    const sorted = z.object({ ticketId: z.string(), transcript: z.string() });
    expect((await normalizeSchema(sorted, "input", "t")).hash).toBe(
      (await normalizeSchema(sorted, "input", "t", LEGACY_SCHEMA_NORMALIZER)).hash,
    );
  });
});
