import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { registeredCapabilities } from "../../src/engine/definition-capabilities.ts";
import { branchingExample, callExample, fillExample, minimalExample, signalExample } from "../../src/harness/plan-examples.ts";
import { planTask } from "../../src/harness/planner-prompt.ts";
import type { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { checkLwir } from "../../src/lwir/check-lwir.ts";
import { lwirJsonSchema, providerLwirSchema } from "../../src/lwir/lwir-json-schema.ts";
import { DOCUMENT, type SchemaNode, STEP_FIELD_NAMES, stepShape, WITH_SHAPES } from "../../src/lwir/lwir-spec.ts";
import { STEP_KINDS } from "../../src/lwir/types.ts";
import { validateLwir } from "../../src/lwir/validate-lwir.ts";
import { registeredWorkflows } from "../../src/workflows.ts";
import { CASES } from "./finding-cases.ts";
import { boundSeedLwir, clone, type JsonObject, kitchenSinkLwir, seedLwir, seedWithComputeScore, set } from "./fixtures.ts";

const full = new Validator(lwirJsonSchema() as unknown as Record<string, unknown>, "2020-12", false);
const provider = new Validator(providerLwirSchema(STEP_KINDS) as unknown as Record<string, unknown>, "2020-12", false);
const schemaAccepts = (doc: unknown) => full.validate(doc).valid;

/**
 * Finding codes a JSON Schema can express (types, required and closed fields, enums, ranges,
 * patterns). The others (graph, templates, digests, binding, cross-field rules) are the
 * validator's alone; the schema accepts those documents and the validator's findings say why not.
 */
const EXPRESSIBLE = new Set([
  "document.not_object",
  "field.required",
  "field.unknown",
  "field.invalid_type",
  "api_version.unsupported",
  "kind.unsupported",
  "metadata.invalid_name",
  "steps.empty",
  "steps.too_many",
  "step.invalid_id",
  "step.unknown_kind",
  "step.invalid_retry",
  "step.invalid_timeout",
  "step.invalid_parameter",
  "output.unknown_mode",
  "output.schema_required",
  "output.unexpected_field",
  "output.invalid_choice",
  "code.invalid_digest",
  "code.invalid_sandbox",
  "code.invalid_limits",
  "fixer.invalid_max_attempts",
  "fixer.missing_system",
  "decision.invalid_cases",
  "decision.missing_default",
  "decision.invalid_max_visits",
  "fanout.invalid_max_concurrency",
  "fanout.invalid_failure_mode",
  "permissions.invalid_entry",
  "permissions.duplicate",
]);

async function examplesOfShippedWorkflows(): Promise<Array<[string, JsonObject, Awaited<ReturnType<typeof snapshotDefinition>>]>> {
  const out: Array<[string, JsonObject, Awaited<ReturnType<typeof snapshotDefinition>>]> = [];
  for (const w of registeredWorkflows) {
    const caps = await registeredCapabilities(registeredWorkflows, w.definition.id);
    const task = planTask(caps, {});
    out.push([`${w.definition.id} minimal`, fillExample(minimalExample(task), task), caps]);
    out.push([`${w.definition.id} branching`, fillExample(branchingExample(task), task), caps]);
    const signal = signalExample(task);
    if (signal) out.push([`${w.definition.id} signal`, fillExample(signal, task), caps]);
    const call = callExample(task);
    if (call) out.push([`${w.definition.id} workflow.run`, fillExample(call, task), caps]);
  }
  return out;
}

describe("the LWIR JSON Schema agrees with validateLwir", () => {
  it("accepts every valid document of the LWIR suite", () => {
    for (const doc of [seedLwir(), boundSeedLwir(), kitchenSinkLwir(), seedWithComputeScore()]) {
      expect(validateLwir(doc).valid).toBe(true);
      expect(full.validate(doc).errors).toEqual([]);
      expect(provider.validate(doc).valid).toBe(true);
    }
  });

  it("accepts every valid case of the finding suite (warnings and binding-only cases) and rejects every invalid one it can express", () => {
    let rejected = 0;
    for (const c of CASES) {
      const doc = c.build();
      const valid = validateLwir(doc).valid;
      if (valid) expect(schemaAccepts(doc), `${c.code}: ${c.title}`).toBe(true);
      else if (EXPRESSIBLE.has(c.code)) {
        expect(schemaAccepts(doc), `${c.code}: ${c.title}`).toBe(false);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThanOrEqual(EXPRESSIBLE.size - 2);
  });

  it("for every step kind, removing a required field or adding an unknown one is refused by both", () => {
    const base: Record<string, JsonObject> = {};
    for (const [name, doc] of [
      ["ai.generate", seedLwir()],
      ["code.run", seedWithComputeScore()],
    ] as const)
      base[name] = doc;
    for (const [kind, doc] of Object.entries(base)) {
      const step = (doc.steps as JsonObject[])[0] as JsonObject;
      expect(step.uses).toBe(kind);
      const shape = stepShape(kind as (typeof STEP_KINDS)[number]);
      for (const [field, spec] of Object.entries(shape.fields)) {
        if (!spec.required) continue;
        const mutated = clone(doc);
        delete ((mutated.steps as JsonObject[])[0] as JsonObject)[field];
        expect(validateLwir(mutated).valid, `${kind} without ${field}`).toBe(false);
        expect(schemaAccepts(mutated), `${kind} without ${field}`).toBe(false);
      }
      for (const field of Object.keys(WITH_SHAPES[kind as (typeof STEP_KINDS)[number]].fields)) {
        const mutated = set(clone(doc), ["steps", 0, "with", `${field}x`], 1);
        expect(validateLwir(mutated).valid).toBe(false);
        expect(schemaAccepts(mutated)).toBe(false);
      }
      const extra = set(clone(doc), ["steps", 0, "kind"], kind);
      expect(
        validateLwir(extra)
          .findings.map((f) => f.message)
          .join(),
      ).toContain('Did you mean "uses"?');
      expect(schemaAccepts(extra)).toBe(false);
    }
    for (const field of Object.keys(DOCUMENT.fields)) {
      const doc = seedLwir();
      delete doc[field];
      expect(validateLwir(doc).valid).toBe(false);
      expect(schemaAccepts(doc)).toBe(false);
    }
    expect(STEP_FIELD_NAMES).toContain("onFailure");
  });

  it("the worked examples the planner prompt shows validate, bind and satisfy the schema, for every shipped workflow", async () => {
    for (const [name, doc, caps] of await examplesOfShippedWorkflows()) {
      expect(
        checkLwir(doc, caps).filter((f) => f.severity === "error"),
        name,
      ).toEqual([]);
      expect(full.validate(doc).errors, name).toEqual([]);
      expect(provider.validate(doc).valid, name).toBe(true);
    }
  });

  it("the provider form uses only keywords OpenAI, Anthropic and Google all accept", () => {
    const allowed = new Set(["type", "description", "enum", "properties", "required", "additionalProperties", "items", "anyOf"]);
    const seen = new Set<string>();
    const walk = (node: SchemaNode) => {
      for (const [key, value] of Object.entries(node)) {
        seen.add(key);
        if (key === "properties") for (const child of Object.values(value as Record<string, SchemaNode>)) walk(child);
        else if (key === "anyOf") for (const child of value as SchemaNode[]) walk(child);
        else if ((key === "items" || key === "additionalProperties") && typeof value === "object") walk(value as SchemaNode);
      }
    };
    walk(providerLwirSchema(STEP_KINDS));
    expect([...seen].filter((k) => !allowed.has(k))).toEqual([]);
    expect(JSON.stringify(providerLwirSchema(STEP_KINDS))).not.toContain("oneOf");
    // A step is a union keyed on `uses`, one branch per kind.
    const steps = (providerLwirSchema(STEP_KINDS).properties?.steps?.items?.anyOf ?? []) as SchemaNode[];
    expect(steps.map((s) => s.properties?.uses?.enum?.[0])).toEqual([...STEP_KINDS]);
  });
});
