import { openai } from "@ai-sdk/openai";
import type { JSONSchema7 } from "@ai-sdk/provider";
import { jsonSchema } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { type DefinitionCapabilities, skillsHash, snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { digestJson, digestText } from "../../src/json/digest.ts";
import { normalizeSchema } from "../../src/schema/normalize-schema.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { WorkflowMissingToolError } from "../../src/sdk/errors/workflow-missing-tool-error.ts";
import { model } from "../../src/sdk/model.ts";
import { skill } from "../../src/sdk/skill.ts";
import { type ToolRegistry, tool } from "../../src/sdk/tool.ts";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const mock = (modelId: string, provider = "mock") => new MockLanguageModelV4({ provider, modelId });

const lookupTool = () =>
  tool({
    description: "Look a customer up in the CRM",
    inputSchema: z.object({ email: z.string() }),
    outputSchema: z.object({ plan: z.string() }),
    execute: async () => ({ plan: "pro" }),
  });

const searchTool = (description = "Search the knowledge base") =>
  tool({ description, inputSchema: z.object({ q: z.string() }), outputSchema: z.object({ hits: z.array(z.string()) }) });

const registry = (): ToolRegistry => ({
  "kb.search": searchTool(),
  "pager.notify": tool({ description: "Page the on-call engineer", inputSchema: z.object({ text: z.string() }) }),
});

/** A definition that uses every field in the hash's scope; every call builds fresh objects. */
function baseInput(): WorkflowDefinitionInput<unknown, unknown> {
  return {
    id: "support.summarize-ticket",
    description: "Summarize a support ticket and classify its severity.",
    input: z.object({ ticketId: z.string(), transcript: z.string() }),
    output: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
    models: [
      model(mock("gpt-5"), { description: "Strong reasoning model for complex analysis." }),
      model(mock("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
    ],
    planner: {
      model: mock("gpt-5"),
      system: "You design support-ticket workflows.",
      skills: [
        skill({ name: "triage", description: "How we grade severity", body: "# Triage\nHigh means outage." }),
        skill({ name: "style", description: "Tone", body: "Be brief." }),
      ],
    },
    worker: { skills: [skill({ name: "summaries", description: "How to summarize", body: "Three sentences." })] },
    tools: { "crm.lookup": lookupTool() },
    globalTools: ["kb.search"],
    memory: { attached: [{ id: "kb-notes", mode: "ro" }] },
  };
}

const snap = (def: WorkflowDefinitionInput<unknown, unknown>, reg: ToolRegistry = registry()) =>
  snapshotDefinition(defineWorkflow(def), reg);

describe("snapshotDefinition: shape", () => {
  it("matches the seed's WorkflowDefinitionSnapshot for the worked example", async () => {
    const caps = await snapshotDefinition(summarizeTicket, {});
    const s = caps.snapshot;
    expect(s.id).toBe("support.summarize-ticket");
    expect(s.description).toBe("Summarize a support ticket and classify its severity.");
    expect(s.inputSchemaHash).toMatch(DIGEST);
    expect(s.outputSchemaHash).toMatch(DIGEST);
    const provider = openai("gpt-5").provider;
    expect(s.modelSlots).toEqual([
      { id: "gpt-5", providerId: provider, modelId: "gpt-5", description: "Strong reasoning model for complex analysis." },
      { id: "gpt-4o-mini", providerId: provider, modelId: "gpt-4o-mini", description: "Fast model for short structured outputs." },
    ]);
    expect(s.plannerConfig).toMatchObject({ modelSlotId: "gpt-5", harnessId: "workflowHarness@1.0.0" });
    expect(s.plannerConfig.systemHash).toBe(digestText("You design support-ticket workflows. Test code in scratch before committing."));
    expect(s.plannerConfig.skillsHash).toMatch(DIGEST);
    expect(s.plannerConfig.skillsHash).toBe(skillsHash([]));
    expect(s.workerConfig).toEqual({ harnessId: "workflowHarness@1.0.0", skillsHash: skillsHash([]) });
    expect(s.globalTools).toEqual([]);
    expect(s.memoryConfig).toEqual({ workflow: "rw", org: "ro", attached: [] });
    expect(caps.definitionHash).toMatch(DIGEST);
  });

  it("hashes the snapshot itself: definitionHash = digestJson(snapshot)", async () => {
    const caps = await snap(baseInput());
    expect(caps.definitionHash).toBe(digestJson(caps.snapshot));
  });

  it("holds hashes of the normalized schemas and returns the schemas beside the snapshot", async () => {
    const caps = await snap(baseInput());
    const input = await normalizeSchema(z.object({ ticketId: z.string(), transcript: z.string() }), "input", "x");
    expect(caps.inputSchema).toEqual(input.schema);
    expect(caps.snapshot.inputSchemaHash).toBe(input.hash);
    expect(caps.requestedOutput).toEqual({ mode: "object", schema: caps.outputSchema });
    expect(caps.snapshot.outputSchemaHash).toBe(digestJson(caps.outputSchema));
    expect(caps.snapshot.requestedOutputMode).toBe("object");
  });

  it("normalizes the input schema in the input direction and the output schema in the output direction", async () => {
    const withDefault = z.object({ a: z.string().default("x") });
    const caps = await snap({ ...baseInput(), input: withDefault, output: withDefault });
    expect((caps.inputSchema as { required?: string[] }).required).toBeUndefined();
    expect((caps.outputSchema as { required?: string[] }).required).toEqual(["a"]);
    expect(caps.snapshot.inputSchemaHash).not.toBe(caps.snapshot.outputSchemaHash);
  });

  it("records planner, worker, tools and memory with digests in the right format", async () => {
    const s = (await snap(baseInput())).snapshot;
    expect(s.plannerConfig).toEqual({
      modelSlotId: "gpt-5",
      providerId: "mock",
      modelId: "gpt-5",
      harnessId: "workflowHarness@1.0.0",
      systemHash: digestText("You design support-ticket workflows."),
      skillsHash: expect.stringMatching(DIGEST),
      maxRevisions: 3,
    });
    expect(s.workerConfig.skillsHash).toMatch(DIGEST);
    expect(s.workerConfig.skillsHash).not.toBe(s.plannerConfig.skillsHash);
    expect(s.globalTools).toEqual(["crm.lookup", "kb.search"]);
    expect(s.tools.map((t) => t.id)).toEqual(["crm.lookup", "kb.search"]);
    for (const t of s.tools) expect(t.descriptorHash).toMatch(DIGEST);
    expect(s.tools[0]).toMatchObject({
      id: "crm.lookup",
      description: "Look a customer up in the CRM",
      inputSchema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
      outputSchema: { type: "object", properties: { plan: { type: "string" } }, required: ["plan"], additionalProperties: false },
    });
    expect(s.memoryConfig).toEqual({ workflow: "rw", org: "ro", attached: [{ id: "kb-notes", mode: "ro" }] });
  });

  it("contains only JSON data (no functions, no model objects)", async () => {
    const caps = await snap(baseInput());
    expect(JSON.parse(JSON.stringify(caps.snapshot))).toEqual(caps.snapshot);
  });

  it("records a tool without an output schema as outputSchema null", async () => {
    const caps = await snap({ ...baseInput(), globalTools: ["pager.notify"] });
    expect(caps.snapshot.tools.find((t) => t.id === "pager.notify")?.outputSchema).toBeNull();
  });

  it("sorts globalTools (inline and registry tools together) and attached memory by id", async () => {
    const s = (
      await snap({
        ...baseInput(),
        tools: { "z.tool": lookupTool(), "a.tool": lookupTool() },
        globalTools: ["pager.notify", "kb.search"],
        memory: {
          attached: [
            { id: "zeta", mode: "ro" },
            { id: "alpha", mode: "rw" },
          ],
        },
      })
    ).snapshot;
    expect(s.globalTools).toEqual(["a.tool", "kb.search", "pager.notify", "z.tool"]);
    expect(s.memoryConfig.attached.map((m) => m.id)).toEqual(["alpha", "zeta"]);
  });
});

describe("snapshotDefinition: stability", () => {
  it("is stable across calls and across freshly built (equal) definitions", async () => {
    const a = await snap(baseInput());
    const b = await snap(baseInput());
    const wf = defineWorkflow(baseInput());
    const c = await snapshotDefinition(wf, registry());
    const d = await snapshotDefinition(wf, registry());
    expect(new Set([a.definitionHash, b.definitionHash, c.definitionHash, d.definitionHash]).size).toBe(1);
    expect(a.snapshot).toEqual(b.snapshot);
  });

  it("is stable across key reordering of JSON Schema inputs", async () => {
    const first = await snap({
      ...baseInput(),
      input: {
        type: "object",
        properties: { ticketId: { type: "string", minLength: 1 }, transcript: { type: "string" } },
        required: ["ticketId"],
      },
      output: { type: "object", additionalProperties: false, properties: { summary: { type: "string" } }, required: ["summary"] },
    });
    const second = await snap({
      ...baseInput(),
      input: {
        required: ["ticketId"],
        properties: { transcript: { type: "string" }, ticketId: { minLength: 1, type: "string" } },
        type: "object",
      },
      output: { required: ["summary"], properties: { summary: { type: "string" } }, additionalProperties: false, type: "object" },
    });
    expect(second.definitionHash).toBe(first.definitionHash);
  });

  it("is the same for a JSON Schema with or without $schema, and for jsonSchema() of it", async () => {
    const schema: JSONSchema7 = { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"] };
    const plain = await snap({ ...baseInput(), input: schema });
    const dialect = await snap({ ...baseInput(), input: { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema } });
    const sdk = await snap({ ...baseInput(), input: jsonSchema(schema) });
    expect(dialect.definitionHash).toBe(plain.definitionHash);
    expect(sdk.definitionHash).toBe(plain.definitionHash);
  });

  it("is stable regardless of skill order, attached memory order, tool order and globalTools order", async () => {
    const base = await snap(baseInput());
    const input = baseInput();
    const reordered = await snap({
      ...input,
      planner: { ...input.planner, skills: [...(input.planner.skills ?? [])].reverse() },
      globalTools: ["pager.notify", "kb.search"],
    });
    const withPager = await snap({ ...baseInput(), globalTools: ["kb.search", "pager.notify"] });
    expect(reordered.definitionHash).toBe(withPager.definitionHash);
    const skillsReversed = await snap({ ...input, planner: { ...input.planner, skills: [...(input.planner.skills ?? [])].reverse() } });
    expect(skillsReversed.definitionHash).toBe(base.definitionHash);

    const twoStores = (attached: { id: string; mode: "ro" | "rw" }[]) => snap({ ...baseInput(), memory: { attached } });
    expect(
      (
        await twoStores([
          { id: "a", mode: "ro" },
          { id: "b", mode: "rw" },
        ])
      ).definitionHash,
    ).toBe(
      (
        await twoStores([
          { id: "b", mode: "rw" },
          { id: "a", mode: "ro" },
        ])
      ).definitionHash,
    );

    const toolsAB = await snap({ ...baseInput(), tools: { "a.tool": lookupTool(), "b.tool": searchTool() } });
    const toolsBA = await snap({ ...baseInput(), tools: { "b.tool": searchTool(), "a.tool": lookupTool() } });
    expect(toolsBA.definitionHash).toBe(toolsAB.definitionHash);
  });

  it("does not depend on tool code (execute) — only on descriptions and schemas", async () => {
    const a = await snap(baseInput());
    const b = await snap({ ...baseInput(), tools: { "crm.lookup": { ...lookupTool(), execute: async () => ({ plan: "free" }) } } });
    expect(b.definitionHash).toBe(a.definitionHash);
  });

  it("does not change when the registry has extra tools the workflow does not name", async () => {
    const a = await snap(baseInput());
    const b = await snap(baseInput(), { ...registry(), "unused.tool": searchTool("never used") });
    expect(b.definitionHash).toBe(a.definitionHash);
  });
});

describe("snapshotDefinition: every field in scope changes the hash", () => {
  type Mutation = {
    name: string;
    def?: (d: WorkflowDefinitionInput<unknown, unknown>) => WorkflowDefinitionInput<unknown, unknown>;
    registry?: () => ToolRegistry;
  };
  const mutations: Mutation[] = [
    { name: "id", def: (d) => ({ ...d, id: "support.summarize-ticket-v2" }) },
    { name: "description", def: (d) => ({ ...d, description: "Summarize a ticket." }) },
    { name: "input schema", def: (d) => ({ ...d, input: z.object({ ticketId: z.string(), transcript: z.string(), locale: z.string() }) }) },
    { name: "input schema field type", def: (d) => ({ ...d, input: z.object({ ticketId: z.number(), transcript: z.string() }) }) },
    { name: "output schema", def: (d) => ({ ...d, output: z.object({ summary: z.string(), severity: z.enum(["low", "high"]) }) }) },
    {
      name: "output mode (json instead of object, same schema)",
      def: (d) => ({
        ...d,
        output: { mode: "json", schema: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }) },
      }),
    },
    { name: "output mode text", def: (d) => ({ ...d, output: { mode: "text" } }) },
    {
      name: "model slot description",
      def: (d) => ({
        ...d,
        models: [
          model(mock("gpt-5"), { description: "Deep reasoning." }),
          model(mock("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
        ],
      }),
    },
    {
      name: "model modelId",
      def: (d) => ({
        ...d,
        models: [
          model(mock("gpt-5.1"), { description: "Strong reasoning model for complex analysis." }),
          model(mock("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
        ],
      }),
    },
    {
      name: "model provider",
      def: (d) => ({
        ...d,
        models: [
          model(mock("gpt-5", "azure"), { description: "Strong reasoning model for complex analysis." }),
          model(mock("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
        ],
      }),
    },
    {
      name: "explicit slot id",
      def: (d) => ({
        ...d,
        models: [
          model(mock("gpt-5"), { description: "Strong reasoning model for complex analysis.", id: "reasoner" }),
          model(mock("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
        ],
      }),
    },
    { name: "model slot order", def: (d) => ({ ...d, models: [...d.models].reverse() }) },
    { name: "extra model slot", def: (d) => ({ ...d, models: [...d.models, model(mock("o3"), { description: "Slow." })] }) },
    { name: "planner model", def: (d) => ({ ...d, planner: { ...d.planner, model: mock("o3") } }) },
    { name: "planner system prompt", def: (d) => ({ ...d, planner: { ...d.planner, system: "You design workflows." } }) },
    {
      name: "planner skill body",
      def: (d) => ({
        ...d,
        planner: {
          ...d.planner,
          skills: [
            skill({ name: "triage", description: "How we grade severity", body: "# Triage\nHigh means data loss." }),
            skill({ name: "style", description: "Tone", body: "Be brief." }),
          ],
        },
      }),
    },
    {
      name: "planner skill description",
      def: (d) => ({
        ...d,
        planner: {
          ...d.planner,
          skills: [
            skill({ name: "triage", description: "Severity rules", body: "# Triage\nHigh means outage." }),
            skill({ name: "style", description: "Tone", body: "Be brief." }),
          ],
        },
      }),
    },
    { name: "planner skill removed", def: (d) => ({ ...d, planner: { ...d.planner, skills: d.planner.skills?.slice(0, 1) ?? [] } }) },
    {
      name: "worker skills",
      def: (d) => ({ ...d, worker: { skills: [skill({ name: "summaries", description: "How to summarize", body: "Two sentences." })] } }),
    },
    { name: "maxRevisions", def: (d) => ({ ...d, planner: { ...d.planner, maxRevisions: 5 } }) },
    { name: "workflow memory mode", def: (d) => ({ ...d, memory: { ...d.memory, workflow: "ro" } }) },
    { name: "org memory mode", def: (d) => ({ ...d, memory: { ...d.memory, org: "none" } }) },
    {
      name: "attached memory added",
      def: (d) => ({ ...d, memory: { attached: [...(d.memory?.attached ?? []), { id: "runbooks", mode: "rw" }] } }),
    },
    { name: "attached memory mode", def: (d) => ({ ...d, memory: { attached: [{ id: "kb-notes", mode: "rw" }] } }) },
    {
      name: "inline tool description",
      def: (d) => ({ ...d, tools: { "crm.lookup": { ...lookupTool(), description: "Find a CRM customer" } } }),
    },
    {
      name: "inline tool input schema",
      def: (d) => ({ ...d, tools: { "crm.lookup": { ...lookupTool(), inputSchema: z.object({ email: z.email() }) } } }),
    },
    {
      name: "inline tool output schema",
      def: (d) => ({ ...d, tools: { "crm.lookup": { ...lookupTool(), outputSchema: z.object({ plan: z.string(), seats: z.number() }) } } }),
    },
    { name: "inline tool renamed", def: (d) => ({ ...d, tools: { "crm.find": lookupTool() } }) },
    { name: "global tool added", def: (d) => ({ ...d, globalTools: ["kb.search", "pager.notify"] }) },
    { name: "global tool removed", def: (d) => ({ ...d, globalTools: [] }) },
    { name: "registry tool description", registry: () => ({ ...registry(), "kb.search": searchTool("Search the docs") }) },
    {
      name: "registry tool input schema",
      registry: () => ({
        ...registry(),
        "kb.search": tool({ ...searchTool(), inputSchema: z.object({ q: z.string(), limit: z.number() }) }),
      }),
    },
  ];

  it("changes for each mutation, and every mutation gives its own hash", async () => {
    const base = await snap(baseInput());
    const hashes = new Map<string, string>([["base", base.definitionHash]]);
    for (const m of mutations) {
      const def = m.def ? m.def(baseInput()) : baseInput();
      const caps: DefinitionCapabilities = await snap(def, m.registry ? m.registry() : registry());
      expect(caps.definitionHash, `mutation "${m.name}" must change the hash`).not.toBe(base.definitionHash);
      const clash = [...hashes].find(([, h]) => h === caps.definitionHash);
      expect(clash?.[0], `mutation "${m.name}" must differ from every other mutation`).toBeUndefined();
      hashes.set(m.name, caps.definitionHash);
    }
    expect(hashes.size).toBe(mutations.length + 1);
  });

  // defineWorkflow refuses ids no harness is registered under, so another id is set on the defined object.
  it("changes with the planner's and the workers' harness ids", async () => {
    const wf = defineWorkflow(baseInput());
    const base = (await snapshotDefinition(wf, registry())).definitionHash;
    const planner = await snapshotDefinition({ ...wf, planner: { ...wf.planner, harness: "workflowHarness@1.1.0" } }, registry());
    const worker = await snapshotDefinition({ ...wf, worker: { ...wf.worker, harness: "workflowHarness@1.1.0" } }, registry());
    expect(new Set([base, planner.definitionHash, worker.definitionHash]).size).toBe(3);
  });

  it("each mutation is reproducible (the same mutation twice gives the same hash)", async () => {
    for (const m of mutations) {
      const a = await snap(m.def ? m.def(baseInput()) : baseInput(), m.registry ? m.registry() : registry());
      const b = await snap(m.def ? m.def(baseInput()) : baseInput(), m.registry ? m.registry() : registry());
      expect(b.definitionHash, m.name).toBe(a.definitionHash);
    }
  });

  it("output mode object vs json keeps the output schema hash but changes the mode and the definition hash", async () => {
    const schema = z.object({ summary: z.string() });
    const asObject = await snap({ ...baseInput(), output: schema });
    const asJson = await snap({ ...baseInput(), output: { mode: "json", schema } });
    expect(asJson.snapshot.outputSchemaHash).toBe(asObject.snapshot.outputSchemaHash);
    expect(asObject.snapshot.requestedOutputMode).toBe("object");
    expect(asJson.snapshot.requestedOutputMode).toBe("json");
    expect(asJson.definitionHash).not.toBe(asObject.definitionHash);
  });
});

describe("snapshotDefinition: missing global tools", () => {
  it("throws WorkflowMissingToolError naming every missing id", async () => {
    const error = await snap({ ...baseInput(), globalTools: ["kb.search", "jira.create", "slack.post"] }).then(
      () => {
        throw new Error("did not throw");
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorkflowMissingToolError);
    const missing = error as WorkflowMissingToolError;
    expect(missing.code).toBe("workflow_missing_tool");
    expect(missing.workflowId).toBe("support.summarize-ticket");
    expect(missing.missing).toEqual(["jira.create", "slack.post"]);
    expect(missing.message).toContain('"jira.create"');
    expect(missing.message).toContain('"slack.post"');
  });

  it("throws with an empty registry (the default) for any global tool", async () => {
    const wf = defineWorkflow({ ...baseInput(), globalTools: ["kb.search"] });
    await expect(snapshotDefinition(wf)).rejects.toMatchObject({ code: "workflow_missing_tool", missing: ["kb.search"] });
  });

  it("does not find tools on the registry's prototype chain", async () => {
    const wf = defineWorkflow({ ...baseInput(), globalTools: ["toString", "constructor"] });
    await expect(snapshotDefinition(wf, registry())).rejects.toMatchObject({
      code: "workflow_missing_tool",
      missing: ["toString", "constructor"],
    });
  });

  it("does not need inline tools in the registry", async () => {
    const caps = await snap({ ...baseInput(), globalTools: [] }, {});
    expect(caps.snapshot.globalTools).toEqual(["crm.lookup"]);
  });
});

describe("skillsHash", () => {
  it("is order-independent and covers name, description and body", () => {
    const a = skill({ name: "a", description: "da", body: "ba" });
    const b = skill({ name: "b", description: "db", body: "bb" });
    expect(skillsHash([a, b])).toBe(skillsHash([b, a]));
    expect(skillsHash([a, b])).toMatch(DIGEST);
    expect(skillsHash([a])).not.toBe(skillsHash([a, b]));
    expect(skillsHash([{ ...a, body: "other" }])).not.toBe(skillsHash([a]));
    expect(skillsHash([{ ...a, description: "other" }])).not.toBe(skillsHash([a]));
    expect(skillsHash([{ ...a, name: "c" }])).not.toBe(skillsHash([a]));
    expect(skillsHash([])).toBe(digestJson([]));
  });
});
