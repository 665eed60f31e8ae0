import type { JSONSchema7 } from "@ai-sdk/provider";
import { jsonSchema, zodSchema } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { digestJson } from "../../src/json/digest.ts";
import { hashJsonSchema, normalizeJsonSchema, normalizeSchema } from "../../src/schema/normalize-schema.ts";
import { LiveValidatorRejectedError } from "../../src/sdk/errors/live-validator-rejected-error.ts";
import { UnsupportedSchemaError } from "../../src/sdk/errors/unsupported-schema-error.ts";

const DIGEST = /^sha256:[0-9a-f]{64}$/;

async function rejection(input: unknown, direction: "input" | "output" = "output"): Promise<unknown> {
  try {
    await normalizeSchema(input, direction, "test.schema");
  } catch (error) {
    return error;
  }
  throw new Error("normalizeSchema did not throw");
}

describe("normalizeSchema: zod 4", () => {
  it("converts a zod object to JSON Schema 2020-12 without a top-level $schema", async () => {
    const d = await normalizeSchema(z.object({ ticketId: z.string(), transcript: z.string() }), "output", "w.output");
    expect(d.kind).toBe("json-schema");
    expect(d.schema).toEqual({
      type: "object",
      properties: { ticketId: { type: "string" }, transcript: { type: "string" } },
      required: ["ticketId", "transcript"],
      additionalProperties: false,
    });
    expect(d.schema).not.toHaveProperty("$schema");
    expect(d.hash).toMatch(DIGEST);
    expect(d.hash).toBe(digestJson(d.schema));
  });

  it("uses 2020-12 keywords (prefixItems for tuples)", async () => {
    const d = await normalizeSchema(z.tuple([z.string(), z.number()]), "output", "w");
    expect(d.schema).toMatchObject({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }] });
  });

  it("keeps constraints that have a JSON Schema form", async () => {
    const d = await normalizeSchema(
      z.object({ n: z.number().int().min(1), tags: z.array(z.string()).max(3), kind: z.enum(["a", "b"]) }),
      "output",
      "w",
    );
    const props = (d.schema as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(props.n).toMatchObject({ type: "integer", minimum: 1 });
    expect(props.tags).toMatchObject({ type: "array", maxItems: 3, items: { type: "string" } });
    expect(props.kind).toEqual({ type: "string", enum: ["a", "b"] });
  });

  it("differs by direction for a field with .default(): optional going in, required coming out", async () => {
    const schema = z.object({ a: z.string().default("x"), b: z.string() });
    const input = await normalizeSchema(schema, "input", "w");
    const output = await normalizeSchema(schema, "output", "w");
    expect((input.schema as { required: string[] }).required).toEqual(["b"]);
    expect((output.schema as { required: string[] }).required).toEqual(["a", "b"]);
    expect(input.hash).not.toBe(output.hash);
  });

  it("hashes the same zod schema built twice alike", async () => {
    const build = () => z.object({ id: z.string(), n: z.number().optional(), tags: z.array(z.enum(["x", "y"])) });
    const a = await normalizeSchema(build(), "output", "w");
    const b = await normalizeSchema(build(), "output", "w");
    expect(a.hash).toBe(b.hash);
    expect(a.schema).toEqual(b.schema);
  });

  it("hashes different zod schemas differently", async () => {
    const a = await normalizeSchema(z.object({ id: z.string() }), "output", "w");
    const b = await normalizeSchema(z.object({ id: z.number() }), "output", "w");
    const c = await normalizeSchema(z.object({ id: z.string().describe("the id") }), "output", "w");
    expect(new Set([a.hash, b.hash, c.hash]).size).toBe(3);
  });

  it("refuses z.date() and types without a JSON Schema form with UnsupportedSchemaError", async () => {
    for (const schema of [z.date(), z.object({ at: z.date() }), z.bigint(), z.map(z.string(), z.string())]) {
      const error = await rejection(schema);
      expect(error).toBeInstanceOf(UnsupportedSchemaError);
      expect((error as UnsupportedSchemaError).code).toBe("schema_unsupported");
      expect((error as UnsupportedSchemaError).where).toBe("test.schema");
    }
  });

  it("refuses transforms in the output direction with UnsupportedSchemaError", async () => {
    for (const schema of [
      z.string().transform((s) => s.length),
      z.transform((v: unknown) => v),
      z.object({ n: z.string().transform(Number) }),
    ]) {
      const error = await rejection(schema, "output");
      expect(error).toBeInstanceOf(UnsupportedSchemaError);
      expect((error as UnsupportedSchemaError).code).toBe("schema_unsupported");
    }
  });

  it("refuses z.custom() (a validator function) as unsupported", async () => {
    const error = await rejection(z.custom<string>((v) => typeof v === "string"));
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
  });

  it("refuses refinements with code instead of silently dropping them", async () => {
    const cases = [
      z.string().refine((s) => s.length > 2),
      z.object({ a: z.string() }).superRefine(() => {}),
      z.object({ nested: z.number().check(() => {}) }),
    ];
    for (const schema of cases) {
      for (const direction of ["input", "output"] as const) {
        const error = await rejection(schema, direction);
        expect(error).toBeInstanceOf(LiveValidatorRejectedError);
        expect((error as LiveValidatorRejectedError).code).toBe("schema_live_validator");
      }
    }
  });

  it("refuses zod 3-like objects", async () => {
    const error = await rejection({ _def: {}, safeParse: () => ({ success: true }) });
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as Error).message).toContain("zod 3");
  });
});

describe("normalizeSchema: AI SDK schemas", () => {
  it("accepts jsonSchema({...}) and hashes it like the plain JSON Schema", async () => {
    const plain: JSONSchema7 = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const fromSdk = await normalizeSchema(jsonSchema(plain), "output", "w");
    const fromPlain = await normalizeSchema(plain, "output", "w");
    expect(fromSdk.schema).toEqual(plain);
    expect(fromSdk.hash).toBe(fromPlain.hash);
  });

  it("accepts zodSchema(z...) and yields the same data as the zod schema itself", async () => {
    const schema = z.object({ a: z.string(), b: z.array(z.number()) });
    const fromSdk = await normalizeSchema(zodSchema(schema), "output", "w");
    const fromZod = await normalizeSchema(schema, "output", "w");
    expect(fromSdk.schema).not.toHaveProperty("$schema");
    expect(fromSdk.schema).toEqual(fromZod.schema);
    expect(fromSdk.hash).toBe(fromZod.hash);
  });

  it("drops a $schema that jsonSchema() carries", async () => {
    const d = await normalizeSchema(jsonSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "string" }), "output", "w");
    expect(d.schema).toEqual({ type: "string" });
  });
});

describe("normalizeSchema: plain JSON Schema", () => {
  it("accepts it as data and drops only the top-level $schema", async () => {
    const withDialect = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { inner: { $schema: "kept", type: "string" } },
    };
    const without = { type: "object", properties: { inner: { $schema: "kept", type: "string" } } };
    const a = await normalizeSchema(withDialect, "input", "w");
    const b = await normalizeSchema(without, "input", "w");
    expect(a.schema).toEqual(without);
    expect(a.hash).toBe(b.hash);
    expect(withDialect).toHaveProperty("$schema");
  });

  it("hashes independently of key order", async () => {
    const a = await normalizeSchema(
      { type: "object", properties: { x: { type: "string", minLength: 1 }, y: { type: "number" } } },
      "input",
      "w",
    );
    const b = await normalizeSchema(
      { properties: { y: { type: "number" }, x: { minLength: 1, type: "string" } }, type: "object" },
      "input",
      "w",
    );
    expect(a.hash).toBe(b.hash);
  });

  it("accepts boolean schemas", async () => {
    expect((await normalizeSchema(true, "output", "w")).schema).toBe(true);
    expect((await normalizeSchema(false, "output", "w")).schema).toBe(false);
    expect((await normalizeSchema(true, "output", "w")).hash).not.toBe((await normalizeSchema(false, "output", "w")).hash);
  });

  it("rejects a bare function as a live validator", async () => {
    const error = await rejection((value: unknown) => typeof value === "string");
    expect(error).toBeInstanceOf(LiveValidatorRejectedError);
    expect((error as LiveValidatorRejectedError).code).toBe("schema_live_validator");
    expect((error as LiveValidatorRejectedError).where).toBe("test.schema");
  });

  it("rejects an object containing a function as a live validator, naming where", async () => {
    const error = await rejection({ type: "object", properties: { a: { type: "string", validate: () => true } } });
    expect(error).toBeInstanceOf(LiveValidatorRejectedError);
    expect((error as Error).message).toContain("$.properties.a.validate");
  });

  it("resolves a lazy AI SDK jsonSchema(() => ...) to plain data", async () => {
    const d = await normalizeSchema(
      jsonSchema(() => ({ type: "string" })),
      "output",
      "w",
    );
    expect(d.schema).toEqual({ type: "string" });
    expect(d.hash).toBe(digestJson({ type: "string" }));
  });

  it("reports where a refinement sits", async () => {
    const error = await rejection(z.object({ nested: z.number().refine((n) => n > 0) }));
    expect((error as Error).message).toContain("$.properties.nested");
  });

  it.each([
    ["null", null],
    ["number", 42],
    ["string", "string"],
    ["undefined", undefined],
    ["array", [{ type: "string" }]],
  ])("rejects %s with UnsupportedSchemaError", async (_label, value) => {
    const error = await rejection(value);
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).code).toBe("schema_unsupported");
  });

  it("rejects non-JSON data inside a schema (Date, NaN, class instances) as unsupported", async () => {
    for (const value of [
      { type: "string", default: new Date(0) },
      { type: "number", maximum: Number.NaN },
      { type: "object", x: new (class X {})() },
    ]) {
      const error = await rejection(value);
      expect(error).toBeInstanceOf(UnsupportedSchemaError);
    }
  });

  it("rejects class instances at the top level", async () => {
    expect(await rejection(new (class Schema {})())).toBeInstanceOf(UnsupportedSchemaError);
    expect(await rejection(new Map())).toBeInstanceOf(UnsupportedSchemaError);
  });
});

describe("normalizeJsonSchema / hashJsonSchema", () => {
  it("drop the dialect marker and hash alike", () => {
    const s = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "integer" };
    expect(normalizeJsonSchema(s, "w")).toEqual({ type: "integer" });
    expect(hashJsonSchema(s, "w")).toBe(hashJsonSchema({ type: "integer" }, "w"));
    expect(hashJsonSchema(s, "w")).toBe(digestJson({ type: "integer" }));
  });

  it("refuse functions and non-objects", () => {
    expect(() => normalizeJsonSchema(() => true, "w")).toThrow(LiveValidatorRejectedError);
    expect(() => normalizeJsonSchema({ not: { validate: () => true } }, "w")).toThrow(LiveValidatorRejectedError);
    expect(() => normalizeJsonSchema("string", "w")).toThrow(UnsupportedSchemaError);
    expect(() => normalizeJsonSchema(null, "w")).toThrow(UnsupportedSchemaError);
  });
});
