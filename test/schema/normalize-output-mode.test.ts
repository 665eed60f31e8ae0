import type { JSONSchema7 } from "@ai-sdk/provider";
import { jsonSchema, Output } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modeForSchema, normalizeOutputMode, OUTPUT_MODES, schemaOfOutputMode } from "../../src/schema/normalize-output-mode.ts";
import { normalizeSchema } from "../../src/schema/normalize-schema.ts";
import { LiveValidatorRejectedError } from "../../src/sdk/errors/live-validator-rejected-error.ts";
import { UnsupportedSchemaError } from "../../src/sdk/errors/unsupported-schema-error.ts";

const item = z.object({ title: z.string(), score: z.number() });
// Normalized (schema normalizer @2): `required` sorted, whatever order the fields were declared in.
const itemJson = {
  type: "object",
  properties: { title: { type: "string" }, score: { type: "number" } },
  required: ["score", "title"],
  additionalProperties: false,
};

async function rejection(input: unknown): Promise<unknown> {
  try {
    await normalizeOutputMode(input, "step.output");
  } catch (error) {
    return error;
  }
  throw new Error("normalizeOutputMode did not throw");
}

describe("normalizeOutputMode: AI SDK Output helpers", () => {
  it("Output.text() -> text", async () => {
    expect(await normalizeOutputMode(Output.text(), "w")).toEqual({ mode: "text" });
  });

  it("Output.object({ schema }) -> object with the normalized schema", async () => {
    expect(await normalizeOutputMode(Output.object({ schema: item }), "w")).toEqual({ mode: "object", schema: itemJson });
  });

  it("Output.object gives the same schema as the bare zod schema", async () => {
    const viaHelper = await normalizeOutputMode(Output.object({ schema: item }), "w");
    const bare = await normalizeOutputMode(item, "w");
    expect(viaHelper).toEqual(bare);
  });

  it("Output.object accepts an AI SDK jsonSchema()", async () => {
    const schema: JSONSchema7 = { type: "object", properties: { a: { type: "string" } } };
    expect(await normalizeOutputMode(Output.object({ schema: jsonSchema(schema) }), "w")).toEqual({ mode: "object", schema });
  });

  it("Output.array({ element }) -> array whose schema describes the whole array", async () => {
    expect(await normalizeOutputMode(Output.array({ element: item }), "w")).toEqual({
      mode: "array",
      schema: { type: "array", items: itemJson },
    });
  });

  it("Output.choice({ options }) -> choice with the values in order", async () => {
    expect(await normalizeOutputMode(Output.choice({ options: ["low", "medium", "high"] }), "w")).toEqual({
      mode: "choice",
      values: ["low", "medium", "high"],
    });
  });

  it("Output.json() -> json without a schema", async () => {
    expect(await normalizeOutputMode(Output.json(), "w")).toEqual({ mode: "json" });
  });

  it("the results are plain data with no $schema", async () => {
    for (const out of [Output.object({ schema: item }), Output.array({ element: item })]) {
      const n = (await normalizeOutputMode(out, "w")) as { schema: Record<string, unknown> };
      expect(n.schema).not.toHaveProperty("$schema");
      expect(JSON.parse(JSON.stringify(n))).toEqual(n);
    }
  });
});

describe("normalizeOutputMode: explicit descriptors", () => {
  it("{ mode: 'text' }", async () => {
    expect(await normalizeOutputMode({ mode: "text" }, "w")).toEqual({ mode: "text" });
  });

  it("{ mode: 'object', schema } normalizes the schema (zod or JSON Schema)", async () => {
    expect(await normalizeOutputMode({ mode: "object", schema: item }, "w")).toEqual({ mode: "object", schema: itemJson });
    expect(await normalizeOutputMode({ mode: "object", schema: { $schema: "x", ...itemJson } }, "w")).toEqual({
      mode: "object",
      schema: itemJson,
    });
  });

  it("{ mode: 'array', schema } takes the whole array's schema", async () => {
    expect(await normalizeOutputMode({ mode: "array", schema: z.array(item) }, "w")).toEqual({
      mode: "array",
      schema: { type: "array", items: itemJson },
    });
  });

  it("{ mode: 'choice', values }", async () => {
    expect(await normalizeOutputMode({ mode: "choice", values: ["yes", "no"] }, "w")).toEqual({ mode: "choice", values: ["yes", "no"] });
  });

  it("{ mode: 'json' } with and without a schema", async () => {
    expect(await normalizeOutputMode({ mode: "json" }, "w")).toEqual({ mode: "json" });
    const union = z.union([z.string(), z.number()]);
    expect(await normalizeOutputMode({ mode: "json", schema: union }, "w")).toEqual({
      mode: "json",
      schema: (await normalizeSchema(union, "output", "w")).schema,
    });
  });

  it("normalizes the schema in the output direction (a .default() field is required)", async () => {
    const n = await normalizeOutputMode({ mode: "object", schema: z.object({ a: z.string().default("x") }) }, "w");
    expect(n).toMatchObject({ mode: "object", schema: { required: ["a"] } });
  });
});

describe("normalizeOutputMode: bare schemas", () => {
  it("an object schema -> object mode", async () => {
    expect(await normalizeOutputMode(item, "w")).toEqual({ mode: "object", schema: itemJson });
    expect(await normalizeOutputMode(itemJson, "w")).toEqual({ mode: "object", schema: itemJson });
  });

  it("an array schema -> array mode", async () => {
    expect(await normalizeOutputMode(z.array(z.string()), "w")).toEqual({
      mode: "array",
      schema: { type: "array", items: { type: "string" } },
    });
    expect(await normalizeOutputMode({ type: "array", items: { type: "number" } }, "w")).toEqual({
      mode: "array",
      schema: { type: "array", items: { type: "number" } },
    });
  });

  it("a string (or any other) schema -> json mode keeping the schema", async () => {
    expect(await normalizeOutputMode(z.string(), "w")).toEqual({ mode: "json", schema: { type: "string" } });
    expect(await normalizeOutputMode({ type: "integer" }, "w")).toEqual({ mode: "json", schema: { type: "integer" } });
    expect(await normalizeOutputMode(true, "w")).toEqual({ mode: "json", schema: true });
  });

  it("a bare schema's mode agrees with modeForSchema on its normalized form", async () => {
    const { schema } = await normalizeSchema(item, "output", "w");
    expect(modeForSchema(schema)).toEqual(await normalizeOutputMode(item, "w"));
  });
});

describe("normalizeOutputMode: rejections", () => {
  it.each([
    ["an unknown mode", { mode: "stream" }],
    ["a non-string mode", { mode: 3 }],
    ["object without a schema", { mode: "object" }],
    ["array without a schema", { mode: "array" }],
    ["an empty choice", { mode: "choice", values: [] }],
    ["a choice without values", { mode: "choice" }],
    ["a choice with non-string values", { mode: "choice", values: ["a", 1] }],
    ["a choice with duplicate values", { mode: "choice", values: ["a", "a"] }],
    ["a choice with an empty value", { mode: "choice", values: ["a", ""] }],
    ["array mode with an object schema", { mode: "array", schema: { type: "object" } }],
    ["object mode with an array schema", { mode: "object", schema: z.array(z.string()) }],
    ["object mode with a boolean schema", { mode: "object", schema: true }],
    ["null", null],
    ["a number", 7],
  ])("%s -> UnsupportedSchemaError", async (_label, input) => {
    const error = await rejection(input);
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).code).toBe("schema_unsupported");
    expect((error as UnsupportedSchemaError).where).toBe("step.output");
  });

  it("an empty Output.choice -> UnsupportedSchemaError", async () => {
    expect(await rejection(Output.choice({ options: [] }))).toBeInstanceOf(UnsupportedSchemaError);
  });

  it("a live validator (bare or inside a descriptor) -> LiveValidatorRejectedError", async () => {
    expect(await rejection((v: unknown) => v)).toBeInstanceOf(LiveValidatorRejectedError);
    expect(await rejection({ mode: "object", schema: { type: "object", validate: () => true } })).toBeInstanceOf(
      LiveValidatorRejectedError,
    );
  });

  it("lists the supported modes in the error for an unknown one", async () => {
    const error = (await rejection({ mode: "stream" })) as Error;
    for (const mode of OUTPUT_MODES) expect(error.message).toContain(mode);
  });
});

describe("schemaOfOutputMode", () => {
  it("gives the JSON Schema an output must satisfy for each mode", () => {
    expect(schemaOfOutputMode({ mode: "text" })).toEqual({ type: "string" });
    expect(schemaOfOutputMode({ mode: "choice", values: ["a", "b"] })).toEqual({ type: "string", enum: ["a", "b"] });
    expect(schemaOfOutputMode({ mode: "object", schema: itemJson })).toBe(itemJson);
    expect(schemaOfOutputMode({ mode: "array", schema: { type: "array" } })).toEqual({ type: "array" });
    expect(schemaOfOutputMode({ mode: "json" })).toBeUndefined();
    expect(schemaOfOutputMode({ mode: "json", schema: { type: "number" } })).toEqual({ type: "number" });
  });
});
