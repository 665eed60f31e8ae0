import { beforeAll, describe, expect, it } from "vitest";
import type { DefinitionCapabilities } from "../../src/identity/definition-snapshot.ts";
import { digestJson } from "../../src/json/digest.ts";
import { bindLwir } from "../../src/lwir/bind-lwir.ts";
import { validateLwir } from "../../src/lwir/validate-lwir.ts";
import { normalizeJsonSchema } from "../../src/schema/normalize-schema.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import {
  boundSeedLwir,
  get,
  type JsonObject,
  lookupCapabilities,
  remove,
  reverseKeys,
  seedLwir,
  seedWithComputeScore,
  set,
  summarizeCapabilities,
} from "./fixtures.ts";

let caps: DefinitionCapabilities;
let lookupCaps: DefinitionCapabilities;

beforeAll(async () => {
  caps = await summarizeCapabilities();
  lookupCaps = await lookupCapabilities();
});

function located(findings: readonly Finding[]): Array<{ code: string; path: string }> {
  for (const f of findings) {
    expect(f.severity).toBe("error");
    expect(f.message.length).toBeGreaterThan(0);
  }
  return findings.map(({ code, path }) => ({ code, path }));
}

/** A structurally valid document bound against `capabilities`. */
function bind(doc: JsonObject, capabilities = caps): Array<{ code: string; path: string }> {
  expect(validateLwir(doc).findings.filter((f) => f.severity === "error")).toEqual([]);
  return located(bindLwir(doc, capabilities));
}

const lookupStep = {
  id: "lookup",
  uses: "tool.call",
  needs: [],
  with: { tool: "crm.lookup", input: { ticket: "{{ input.ticketId }}" } },
  output: { mode: "json" },
};

/** The bound seed with a tool.call step feeding summarize, tool permitted. */
function withLookup(): JsonObject {
  const doc = set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]);
  (doc.steps as unknown[]).unshift(structuredClone(lookupStep));
  return set(doc, ["steps", 1, "needs"], ["lookup"]);
}

describe("the example definition's capabilities", () => {
  it("are the seed's: two slots gpt-5 and gpt-4o-mini, no tools, normalized schemas without $schema", () => {
    expect(caps.snapshot.id).toBe("support.summarize-ticket");
    expect(caps.snapshot.modelSlots.map((s) => s.id)).toEqual(["gpt-5", "gpt-4o-mini"]);
    expect(caps.snapshot.tools).toEqual([]);
    expect(caps.inputSchema).not.toHaveProperty("$schema");
    expect(caps.snapshot.inputSchemaHash).toBe(digestJson(caps.inputSchema));
    expect(caps.snapshot.outputSchemaHash).toBe(digestJson(caps.outputSchema));
  });
});

describe("bindLwir: the seed", () => {
  it("the seed's input schema is exactly the definition's", () => {
    expect(get(seedLwir(), ["input", "schema"])).toEqual(caps.inputSchema);
  });

  it("the bound seed (the spec's LWIR plus output additionalProperties: false) binds clean", () => {
    expect(bindLwir(boundSeedLwir(), caps)).toEqual([]);
    // The seed lists `required` as ["summary", "severity"]; the definition's (order-free) form sorts it.
    expect(normalizeJsonSchema(get(boundSeedLwir(), ["output", "schema"]), "seed")).toEqual(caps.outputSchema);
  });

  it("the seed's abbreviated LWIR differs from the zod-derived definition only in the closed output object", () => {
    // zod object schemas are closed (additionalProperties: false); the seed's excerpt leaves that
    // out, so a planner copying the seed verbatim gets exactly this finding and repairs it.
    expect(bindLwir(seedLwir(), caps).map((f) => [f.code, f.path])).toEqual([["binding.output_schema_mismatch", "$.output.schema"]]);
  });

  it("the seed plus its compute-score fixer step binds clean (fixer model gpt-4o-mini is a slot)", () => {
    const doc = seedWithComputeScore();
    set(doc, ["output", "schema", "additionalProperties"], false);
    expect(bind(doc)).toEqual([]);
  });

  it("permitting both slots and using gpt-5 binds clean", () => {
    const doc = set(boundSeedLwir(), ["permissions", "models"], ["gpt-5", "gpt-4o-mini"]);
    set(doc, ["steps", 0, "with", "model"], "gpt-5");
    expect(bind(doc)).toEqual([]);
  });
});

describe("bindLwir: schema normalization", () => {
  const dialect = "https://json-schema.org/draft/2020-12/schema";

  it("a top-level $schema on the input or output schema still binds", () => {
    const doc = set(boundSeedLwir(), ["input", "schema", "$schema"], dialect);
    set(doc, ["output", "schema", "$schema"], dialect);
    expect(bind(doc)).toEqual([]);
  });

  it("key order anywhere in the schemas does not matter", () => {
    const doc = boundSeedLwir();
    set(doc, ["input", "schema"], reverseKeys(get(doc, ["input", "schema"])));
    set(doc, ["output", "schema"], reverseKeys(get(doc, ["output", "schema"])));
    expect(Object.keys(get(doc, ["input", "schema"]) as object)[0]).toBe("properties");
    expect(bind(doc)).toEqual([]);
    expect(bind(reverseKeys(boundSeedLwir()))).toEqual([]);
  });

  it("a nested $schema is content, not the dialect marker: it does not bind", () => {
    const doc = set(boundSeedLwir(), ["input", "schema", "properties", "ticketId", "$schema"], dialect);
    expect(bind(doc)).toEqual([{ code: "binding.input_schema_mismatch", path: "$.input.schema" }]);
  });

  it("a loosened schema does not bind: dropping a required field, or additionalProperties: false on output", () => {
    expect(bind(set(boundSeedLwir(), ["input", "schema", "required"], ["ticketId"]))).toEqual([
      { code: "binding.input_schema_mismatch", path: "$.input.schema" },
    ]);
    expect(bind(remove(boundSeedLwir(), ["output", "schema", "additionalProperties"]))).toEqual([
      { code: "binding.output_schema_mismatch", path: "$.output.schema" },
    ]);
    expect(bind(set(boundSeedLwir(), ["output", "schema"], true))).toEqual([
      { code: "binding.output_schema_mismatch", path: "$.output.schema" },
    ]);
  });
});

describe("bindLwir: each mismatch has its code and path", () => {
  it("metadata.name differs", () => {
    expect(bind(set(boundSeedLwir(), ["metadata", "name"], "support.summarize-tickets"))).toEqual([
      { code: "binding.workflow_name_mismatch", path: "$.metadata.name" },
    ]);
  });

  it("input schema differs (an extra property)", () => {
    expect(bind(set(boundSeedLwir(), ["input", "schema", "properties", "priority"], { type: "string" }))).toEqual([
      { code: "binding.input_schema_mismatch", path: "$.input.schema" },
    ]);
  });

  it("output schema differs (a property type)", () => {
    expect(bind(set(boundSeedLwir(), ["output", "schema", "properties", "summary", "type"], "number"))).toEqual([
      { code: "binding.output_schema_mismatch", path: "$.output.schema" },
    ]);
  });

  it("permissions.models names a slot the definition lacks", () => {
    expect(bind(set(boundSeedLwir(), ["permissions", "models"], ["gpt-4o-mini", "gpt-4o"]))).toEqual([
      { code: "binding.model_not_in_snapshot", path: "$.permissions.models[1]" },
    ]);
  });

  it("permissions.tools names an unknown tool", () => {
    expect(bind(set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]))).toEqual([
      { code: "binding.tool_not_in_snapshot", path: "$.permissions.tools[0]" },
    ]);
  });

  it("a step's with.model is not a slot", () => {
    const doc = set(boundSeedLwir(), ["permissions", "models"], ["gpt-4o-mini", "o3"]);
    set(doc, ["steps", 0, "with", "model"], "o3");
    expect(bind(doc)).toEqual([
      { code: "binding.model_not_in_snapshot", path: "$.permissions.models[1]" },
      { code: "binding.step_model_not_allowed", path: "$.steps[0].with.model" },
    ]);
  });

  it("a fixer's model is not a slot", () => {
    const doc = seedWithComputeScore();
    set(doc, ["output", "schema", "additionalProperties"], false);
    set(doc, ["permissions", "models"], ["gpt-4o-mini", "o3"]);
    set(doc, ["steps", 0, "onFailure", "fixer", "model"], "o3");
    expect(bind(doc)).toEqual([
      { code: "binding.model_not_in_snapshot", path: "$.permissions.models[1]" },
      { code: "binding.step_model_not_allowed", path: "$.steps[0].onFailure.fixer.model" },
    ]);
  });

  it("a tool.call step's tool is unknown to the definition", () => {
    expect(bind(withLookup())).toEqual([
      { code: "binding.tool_not_in_snapshot", path: "$.permissions.tools[0]" },
      { code: "binding.step_tool_not_allowed", path: "$.steps[0].with.tool" },
    ]);
  });

  it("a secret is listed (definitions declare none)", () => {
    expect(bind(set(boundSeedLwir(), ["permissions", "secrets"], ["ZENDESK_TOKEN", "CRM_KEY"]))).toEqual([
      { code: "binding.secret_not_in_snapshot", path: "$.permissions.secrets[0]" },
      { code: "binding.secret_not_in_snapshot", path: "$.permissions.secrets[1]" },
    ]);
  });

  it("reports every mismatch at once", () => {
    const doc = set(withLookup(), ["metadata", "name"], "other");
    set(doc, ["input", "schema"], { type: "object" });
    set(doc, ["permissions", "secrets"], ["TOKEN"]);
    expect(bind(doc).map((f) => f.code)).toEqual([
      "binding.workflow_name_mismatch",
      "binding.input_schema_mismatch",
      "binding.tool_not_in_snapshot",
      "binding.secret_not_in_snapshot",
      "binding.step_tool_not_allowed",
    ]);
  });
});

describe("bindLwir: tools the definition provides", () => {
  it("the definition with crm.lookup exposes its descriptor", () => {
    expect(lookupCaps.snapshot.tools.map((t) => t.id)).toEqual(["crm.lookup"]);
    expect(lookupCaps.snapshot.globalTools).toEqual(["crm.lookup"]);
  });

  it("a tool.call step of a provided, permitted tool binds clean", () => {
    expect(bind(withLookup(), lookupCaps)).toEqual([]);
  });

  it("a provided tool not named by the step is still fine to omit from permissions", () => {
    expect(bind(boundSeedLwir(), lookupCaps)).toEqual([]);
  });

  it("another tool is still refused", () => {
    const doc = withLookup();
    set(doc, ["permissions", "tools"], ["crm.lookup", "crm.update"]);
    set(doc, ["steps", 0, "with", "tool"], "crm.update");
    expect(bind(doc, lookupCaps)).toEqual([
      { code: "binding.tool_not_in_snapshot", path: "$.permissions.tools[1]" },
      { code: "binding.step_tool_not_allowed", path: "$.steps[0].with.tool" },
    ]);
  });
});
