import { describe, expect, it } from "vitest";
import { z } from "zod";
import { normalizeSchema } from "../../src/schema/normalize-schema.ts";
import { pointerToPath, validateJson } from "../../src/schema/validate-json.ts";

const ticket = {
  type: "object",
  properties: {
    ticketId: { type: "string" },
    transcript: { type: "string" },
    items: { type: "array", items: { type: "number" } },
  },
  required: ["ticketId", "transcript"],
};

describe("validateJson", () => {
  it("accepts a valid value with no findings", () => {
    expect(validateJson(ticket, { ticketId: "T-1", transcript: "hello", items: [1, 2, 3] })).toEqual({ valid: true, findings: [] });
  });

  it("reports a wrong field type at its JSONPath with the default code", () => {
    const result = validateJson(ticket, { ticketId: "T-1", transcript: 42 });
    expect(result.valid).toBe(false);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ severity: "error", code: "schema.invalid_value", path: "$.transcript" });
    expect(result.findings[0]?.message).toMatch(/string/);
  });

  it("reports an array element at $.items[2]", () => {
    const result = validateJson(ticket, { ticketId: "T-1", transcript: "t", items: [1, 2, "three"] });
    expect(result.findings.map((f) => f.path)).toEqual(["$.items[2]"]);
  });

  it("reports a type error at the root as $", () => {
    const result = validateJson(ticket, "not an object");
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => ({ path: f.path, code: f.code }))).toEqual([{ path: "$", code: "schema.invalid_value" }]);
    expect(validateJson({ type: "string" }, 3).findings.map((f) => f.path)).toEqual(["$"]);
  });

  it("reports missing required properties at the object holding them", () => {
    const result = validateJson(ticket, {});
    expect(result.findings).toHaveLength(2);
    expect(result.findings.every((f) => f.path === "$")).toBe(true);
    expect(result.findings.map((f) => f.message).join("\n")).toContain("ticketId");
    expect(result.findings.map((f) => f.message).join("\n")).toContain("transcript");
  });

  it("reports every error, not just the first, for two bad fields", () => {
    const result = validateJson(ticket, { ticketId: 7, transcript: false, items: [1, "x"] });
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => f.path).sort()).toEqual(["$.items[1]", "$.ticketId", "$.transcript"]);
  });

  it("does not report container keywords (properties/items) on top of the leaf errors", () => {
    const result = validateJson(ticket, { ticketId: "T", transcript: 1 });
    expect(result.findings.map((f) => f.path)).toEqual(["$.transcript"]);
  });

  it("uses the given code", () => {
    const result = validateJson(ticket, { ticketId: "T", transcript: 1 }, "input.invalid");
    expect(result.findings.map((f) => f.code)).toEqual(["input.invalid"]);
  });

  it("quotes keys that are not identifiers, and unescapes JSON Pointer tokens", () => {
    const schema = {
      type: "object",
      properties: { "a b": { type: "string" }, "p/q": { type: "string" }, "t~n": { type: "string" }, "50%": { type: "string" } },
    };
    const result = validateJson(schema, { "a b": 1, "p/q": 2, "t~n": 3, "50%": 4 });
    expect(result.findings.map((f) => f.path).sort()).toEqual(['$["50%"]', '$["a b"]', '$["p/q"]', '$["t~n"]'].sort());
  });

  it("reports nested paths", () => {
    const schema = {
      type: "object",
      properties: {
        steps: {
          type: "array",
          items: { type: "object", properties: { with: { type: "object", properties: { model: { type: "string" } } } } },
        },
      },
    };
    const result = validateJson(schema, { steps: [{ with: { model: "ok" } }, { with: { model: 5 } }] });
    expect(result.findings.map((f) => f.path)).toEqual(["$.steps[1].with.model"]);
  });

  it("supports 2020-12 keywords (prefixItems, $defs/$ref, enum, const)", () => {
    const schema = {
      $defs: { sev: { enum: ["low", "high"] } },
      type: "object",
      properties: {
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
        sev: { $ref: "#/$defs/sev" },
        v: { const: 1 },
      },
    };
    expect(validateJson(schema, { pair: ["a", 1], sev: "low", v: 1 }).valid).toBe(true);
    const result = validateJson(schema, { pair: ["a", "b"], sev: "mid", v: 2 });
    expect(result.findings.map((f) => f.path).sort()).toEqual(["$.pair[1]", "$.sev", "$.v"]);
  });

  it("validates against a normalized zod schema, including additionalProperties: false", async () => {
    const { schema } = await normalizeSchema(z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }), "output", "w");
    expect(validateJson(schema, { summary: "s", severity: "low" }).valid).toBe(true);
    const result = validateJson(schema, { summary: "s", severity: "urgent", extra: true });
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => f.path)).toContain("$.severity");
    expect(result.findings.some((f) => f.path === "$.extra" || f.message.includes("extra"))).toBe(true);
  });

  it("handles boolean schemas", () => {
    expect(validateJson(true, { anything: 1 })).toEqual({ valid: true, findings: [] });
    const result = validateJson(false, 1);
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => f.path)).toEqual(["$"]);
  });

  it("gives the same answer when a schema object is reused (cached validator)", () => {
    expect(validateJson(ticket, { ticketId: "a", transcript: "b" }).valid).toBe(true);
    expect(validateJson(ticket, { ticketId: "a" }).valid).toBe(false);
    expect(validateJson(ticket, { ticketId: "a", transcript: "b" }).valid).toBe(true);
  });
});

describe("pointerToPath", () => {
  it.each([
    ["#", "$"],
    ["", "$"],
    ["#/transcript", "$.transcript"],
    ["#/items/2", "$.items[2]"],
    ["#/a/0/b~1c", '$.a[0]["b/c"]'],
    ["#/m~0n", '$["m~n"]'],
    ["#/steps/0/with", "$.steps[0].with"],
  ])("%j -> %s", (pointer, path) => {
    expect(pointerToPath(pointer)).toBe(path);
  });
});
