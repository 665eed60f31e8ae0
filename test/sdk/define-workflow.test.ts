import { openai } from "@ai-sdk/openai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { DEFAULT_HARNESS_ID, defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { WorkflowDefinitionError } from "../../src/sdk/errors/workflow-definition-error.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { type ModelSlotDeclaration, model } from "../../src/sdk/model.ts";
import { skill } from "../../src/sdk/skill.ts";
import { tool } from "../../src/sdk/tool.ts";

const mock = (modelId = "m-1") => new MockLanguageModelV4({ provider: "mock", modelId });

/** A minimal valid definition; each test overrides one part of it. */
function base(): WorkflowDefinitionInput<unknown, unknown> {
  return {
    id: "support.triage",
    description: "Triage a ticket.",
    input: z.object({ ticketId: z.string() }),
    output: z.object({ severity: z.enum(["low", "high"]) }),
    models: [model(mock(), { description: "Mock model." })],
    planner: { model: mock("planner"), system: "You design workflows." },
  };
}

/** Runs defineWorkflow expecting it to throw; returns the error. */
function definitionError(def: unknown): WorkflowDefinitionError {
  try {
    defineWorkflow(def as WorkflowDefinitionInput<unknown, unknown>);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowDefinitionError);
    return error as WorkflowDefinitionError;
  }
  throw new Error("defineWorkflow did not throw");
}

const codesAndPaths = (findings: readonly Finding[]) => findings.map((f) => ({ code: f.code, path: f.path }));

describe("defineWorkflow: the seed's worked example", () => {
  it("accepts support.summarize-ticket as written and applies the defaults", () => {
    expect(summarizeTicket.kind).toBe("little.workflow");
    expect(summarizeTicket.id).toBe("support.summarize-ticket");
    expect(summarizeTicket.description).toBe("Summarize a support ticket and classify its severity.");
    expect(summarizeTicket.models).toHaveLength(2);
    expect(summarizeTicket.models.map((m) => m.kind)).toEqual(["little.model", "little.model"]);
    expect(summarizeTicket.planner.system).toBe("You design support-ticket workflows. Test code in scratch before committing.");
    expect(summarizeTicket.planner.harness).toBe("workflowHarness@1.0.0");
    expect(DEFAULT_HARNESS_ID).toBe("workflowHarness@1.0.0");
    expect(summarizeTicket.planner.maxRevisions).toBe(3);
    expect(summarizeTicket.planner.skills).toEqual([]);
    expect(summarizeTicket.worker).toEqual({ harness: "workflowHarness@1.0.0", skills: [] });
    expect(summarizeTicket.tools).toEqual({});
    expect(summarizeTicket.globalTools).toEqual([]);
    expect(summarizeTicket.memory).toEqual({ workflow: "rw", org: "ro", attached: [] });
  });

  it("accepts the same definition built inline with a fresh openai provider", () => {
    const wf = defineWorkflow({
      id: "support.summarize-ticket",
      description: "Summarize a support ticket and classify its severity.",
      input: z.object({ ticketId: z.string(), transcript: z.string() }),
      output: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
      models: [
        model(openai("gpt-5"), { description: "Strong reasoning model for complex analysis." }),
        model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
      ],
      planner: { model: openai("gpt-5"), system: "You design support-ticket workflows. Test code in scratch before committing." },
    });
    expect(wf.id).toBe(summarizeTicket.id);
    expect(wf.models.map((m) => m.description)).toEqual(summarizeTicket.models.map((m) => m.description));
  });

  it("keeps explicit settings instead of the defaults", () => {
    const wf = defineWorkflow({
      ...base(),
      planner: {
        model: mock("p"),
        system: "s",
        harness: DEFAULT_HARNESS_ID,
        maxRevisions: 7,
        skills: [skill({ name: "triage", description: "d", body: "b" })],
      },
      worker: { harness: DEFAULT_HARNESS_ID, skills: [skill({ name: "grading", description: "d", body: "b" })] },
      memory: { workflow: "ro", org: "none", attached: [{ id: "kb", mode: "ro" }] },
      globalTools: ["crm.lookup"],
    });
    expect(wf.planner.harness).toBe(DEFAULT_HARNESS_ID);
    expect(wf.planner.maxRevisions).toBe(7);
    expect(wf.planner.skills.map((s) => s.name)).toEqual(["triage"]);
    expect(wf.worker).toEqual({ harness: DEFAULT_HARNESS_ID, skills: [{ name: "grading", description: "d", body: "b" }] });
    expect(wf.memory).toEqual({ workflow: "ro", org: "none", attached: [{ id: "kb", mode: "ro" }] });
    expect(wf.globalTools).toEqual(["crm.lookup"]);
  });

  it("copies arrays so later mutation of the input does not change the definition", () => {
    const input = base();
    const models = [...input.models];
    const globalTools = ["a.tool"];
    const wf = defineWorkflow({ ...input, models, globalTools });
    models.push(model(mock("m-2"), { description: "late" }));
    globalTools.push("b.tool");
    expect(wf.models).toHaveLength(1);
    expect(wf.globalTools).toEqual(["a.tool"]);
  });
});

describe("defineWorkflow: rejected definitions", () => {
  it("throws a WorkflowDefinitionError with a stable code that is a LittleError", () => {
    const error = definitionError({ ...base(), id: "Bad Id!" });
    expect(error.code).toBe("workflow_definition_invalid");
    expect(error.name).toBe("WorkflowDefinitionError");
    expect(LittleError.is(error)).toBe(true);
    expect(error.toJSON().code).toBe("workflow_definition_invalid");
    expect(error.message).toContain("Bad Id!");
    expect(error.message).toContain("$.id");
  });

  it.each([
    ["uppercase", "Support.Triage"],
    ["spaces", "support triage"],
    ["leading dot", ".support"],
    ["trailing dash", "support-"],
    ["empty", ""],
    ["too long", `a${"b".repeat(128)}`],
  ])("rejects a bad id (%s)", (_label, id) => {
    const error = definitionError({ ...base(), id });
    expect(codesAndPaths(error.findings)).toEqual([{ code: "definition.invalid_id", path: "$.id" }]);
  });

  it("accepts ids at the edge of the pattern", () => {
    expect(defineWorkflow({ ...base(), id: "a" }).id).toBe("a");
    const long = `a${"b".repeat(127)}`;
    expect(defineWorkflow({ ...base(), id: long }).id).toBe(long);
  });

  it("rejects a missing or blank description", () => {
    const { description: _omit, ...rest } = base();
    expect(codesAndPaths(definitionError(rest).findings)).toEqual([{ code: "definition.missing_description", path: "$.description" }]);
    expect(codesAndPaths(definitionError({ ...base(), description: "   " }).findings)).toEqual([
      { code: "definition.missing_description", path: "$.description" },
    ]);
  });

  it("rejects missing input and output schemas", () => {
    const { input: _i, output: _o, ...rest } = base();
    expect(codesAndPaths(definitionError(rest).findings)).toEqual([
      { code: "definition.missing_input", path: "$.input" },
      { code: "definition.missing_output", path: "$.output" },
    ]);
  });

  it("rejects a definition without models (missing or empty)", () => {
    const { models: _m, ...rest } = base();
    expect(codesAndPaths(definitionError(rest).findings)).toEqual([{ code: "definition.no_models", path: "$.models" }]);
    expect(codesAndPaths(definitionError({ ...base(), models: [] }).findings)).toEqual([
      { code: "definition.no_models", path: "$.models" },
    ]);
  });

  it("rejects a model that is not wrapped in model()", () => {
    const error = definitionError({ ...base(), models: [model(mock(), { description: "ok" }), mock("raw")] });
    expect(codesAndPaths(error.findings)).toEqual([{ code: "definition.invalid_model", path: "$.models[1]" }]);
    expect(error.findings[0]?.message).toContain("model(");
  });

  it("rejects a model slot without a description", () => {
    const error = definitionError({ ...base(), models: [model(mock(), { description: " " })] });
    expect(codesAndPaths(error.findings)).toEqual([{ code: "definition.missing_model_description", path: "$.models[0].description" }]);
  });

  it("rejects duplicate explicit slot ids", () => {
    const error = definitionError({
      ...base(),
      models: [model(mock("a"), { description: "a", id: "fast" }), model(mock("b"), { description: "b", id: "fast" })],
    });
    expect(codesAndPaths(error.findings)).toEqual([{ code: "definition.duplicate_slot_id", path: "$.models[1].id" }]);
  });

  it.each(["-fast", "has space", "x".repeat(65), ""])("rejects an invalid explicit slot id %j", (id) => {
    const error = definitionError({ ...base(), models: [model(mock(), { description: "a", id })] });
    expect(codesAndPaths(error.findings)).toEqual([{ code: "definition.invalid_slot_id", path: "$.models[0].id" }]);
  });

  it("rejects a missing planner", () => {
    const { planner: _p, ...rest } = base();
    expect(codesAndPaths(definitionError(rest).findings)).toEqual([{ code: "definition.missing_planner", path: "$.planner" }]);
  });

  it("rejects a planner without a model or a system prompt", () => {
    expect(codesAndPaths(definitionError({ ...base(), planner: { system: "s" } }).findings)).toEqual([
      { code: "definition.missing_planner_model", path: "$.planner.model" },
    ]);
    expect(codesAndPaths(definitionError({ ...base(), planner: { model: mock() } }).findings)).toEqual([
      { code: "definition.missing_planner_system", path: "$.planner.system" },
    ]);
    expect(codesAndPaths(definitionError({ ...base(), planner: { model: mock(), system: "  \n" } }).findings)).toEqual([
      { code: "definition.missing_planner_system", path: "$.planner.system" },
    ]);
  });

  it.each([0, 21, 2.5, -1])("rejects maxRevisions %s", (maxRevisions) => {
    const error = definitionError({ ...base(), planner: { model: mock(), system: "s", maxRevisions } });
    expect(codesAndPaths(error.findings)).toEqual([{ code: "definition.invalid_max_revisions", path: "$.planner.maxRevisions" }]);
  });

  it("accepts maxRevisions 1 and 20", () => {
    expect(defineWorkflow({ ...base(), planner: { model: mock(), system: "s", maxRevisions: 1 } }).planner.maxRevisions).toBe(1);
    expect(defineWorkflow({ ...base(), planner: { model: mock(), system: "s", maxRevisions: 20 } }).planner.maxRevisions).toBe(20);
  });

  it("rejects bad memory modes, for the workflow, org and attached stores", () => {
    const error = definitionError({
      ...base(),
      memory: { workflow: "write", org: "RW", attached: [{ id: "kb", mode: "none" }] },
    });
    expect(codesAndPaths(error.findings)).toEqual([
      { code: "definition.invalid_memory_mode", path: "$.memory.workflow" },
      { code: "definition.invalid_memory_mode", path: "$.memory.org" },
      { code: "definition.invalid_memory_mode", path: "$.memory.attached[0].mode" },
    ]);
  });

  it("rejects attached memory stores with duplicate or invalid ids", () => {
    const error = definitionError({
      ...base(),
      memory: {
        attached: [
          { id: "kb", mode: "ro" },
          { id: "kb", mode: "rw" },
          { id: "9bad", mode: "ro" },
        ],
      },
    });
    expect(codesAndPaths(error.findings)).toEqual([
      { code: "definition.invalid_memory_store", path: "$.memory.attached[1]" },
      { code: "definition.invalid_memory_store", path: "$.memory.attached[2]" },
    ]);
  });

  it("rejects a tool named both inline and in globalTools, and a global named twice", () => {
    const lookup = tool({ description: "Look a customer up", inputSchema: z.object({ email: z.string() }) });
    const error = definitionError({ ...base(), tools: { "crm.lookup": lookup }, globalTools: ["search", "crm.lookup", "search"] });
    expect(codesAndPaths(error.findings)).toEqual([
      { code: "definition.duplicate_tool", path: "$.globalTools[1]" },
      { code: "definition.duplicate_tool", path: "$.globalTools[2]" },
    ]);
    expect(error.findings[0]?.message).toContain("crm.lookup");
  });

  it("rejects invalid tool ids and inline tools without a description", () => {
    const error = definitionError({
      ...base(),
      tools: { "1tool": { description: "d", inputSchema: z.object({}) }, ok: { description: "", inputSchema: z.object({}) } },
      globalTools: ["has space"],
    });
    expect(codesAndPaths(error.findings)).toEqual([
      { code: "definition.invalid_tool_id", path: '$.tools["1tool"]' },
      { code: "definition.missing_tool_description", path: "$.tools.ok.description" },
      { code: "definition.invalid_tool_id", path: "$.globalTools[0]" },
    ]);
  });

  it("rejects bad and duplicate skill names for planner and worker skills", () => {
    const error = definitionError({
      ...base(),
      planner: {
        model: mock(),
        system: "s",
        skills: [
          skill({ name: "Triage", description: "d", body: "b" }),
          skill({ name: "ok", description: "d", body: "b" }),
          skill({ name: "ok", description: "d", body: "b" }),
        ],
      },
      worker: { skills: [skill({ name: "under_score", description: "d", body: "b" }), { name: "fine", description: "d" } as never] },
    });
    expect(codesAndPaths(error.findings)).toEqual([
      { code: "definition.invalid_skill", path: "$.planner.skills[0].name" },
      { code: "definition.duplicate_skill", path: "$.planner.skills[2].name" },
      { code: "definition.invalid_skill", path: "$.worker.skills[0].name" },
      { code: "definition.invalid_skill", path: "$.worker.skills[1]" },
    ]);
  });

  it("reports every problem at once, not just the first", () => {
    const error = definitionError({
      id: "BAD",
      description: "",
      input: z.object({}),
      output: z.object({}),
      models: [mock()],
      planner: { model: mock() },
      memory: { workflow: "all" },
    });
    expect(error.findings.map((f) => f.code)).toEqual([
      "definition.invalid_id",
      "definition.missing_description",
      "definition.invalid_model",
      "definition.missing_planner_system",
      "definition.invalid_memory_mode",
    ]);
    expect(error.findings.every((f) => f.severity === "error" && f.message.length > 0)).toBe(true);
    for (const path of ["$.id", "$.description", "$.models[0]", "$.planner.system", "$.memory.workflow"]) {
      expect(error.message).toContain(path);
    }
  });

  it("rejects a non-object definition", () => {
    expect(codesAndPaths(definitionError(null).findings)).toEqual([{ code: "definition.not_object", path: "$" }]);
    expect(codesAndPaths(definitionError("support.triage").findings)).toEqual([{ code: "definition.not_object", path: "$" }]);
  });
});

describe("tool() and skill()", () => {
  it("tool() requires a description and returns the tool unchanged", () => {
    const t = { description: "Look up", inputSchema: z.object({ q: z.string() }) };
    expect(tool(t)).toBe(t);
    expect(() => tool({ description: " ", inputSchema: z.object({}) })).toThrow(TypeError);
  });

  it("skill() keeps only name, description and body", () => {
    const s = skill({ name: "triage", description: "How we grade", body: "# Triage", extra: 1 } as never);
    expect(s).toEqual({ name: "triage", description: "How we grade", body: "# Triage" });
  });

  it("model() declarations without an id carry no id key", () => {
    const slot: ModelSlotDeclaration = model(mock(), { description: "d" });
    expect(Object.hasOwn(slot, "id")).toBe(false);
  });
});
