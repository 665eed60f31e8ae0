import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { manifestHash, memoryStoreIds, type PlannerManifest, plannerManifest, toolsHash } from "../../src/identity/planner-manifest.ts";
import { digestJson, digestText } from "../../src/json/digest.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { skill } from "../../src/sdk/skill.ts";
import { type ToolRegistry, tool } from "../../src/sdk/tool.ts";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const mock = (modelId: string) => new MockLanguageModelV4({ provider: "mock", modelId });

const searchTool = (description = "Search the knowledge base") => tool({ description, inputSchema: z.object({ q: z.string() }) });

function baseInput(): WorkflowDefinitionInput<unknown, unknown> {
  return {
    id: "support.triage",
    description: "Triage a ticket.",
    input: z.object({ ticketId: z.string() }),
    output: z.object({ severity: z.enum(["low", "high"]) }),
    models: [model(mock("gpt-4o-mini"), { description: "Fast." })],
    planner: {
      model: mock("gpt-5"),
      system: "You design triage workflows.",
      skills: [skill({ name: "triage", description: "d", body: "b" })],
    },
    globalTools: ["kb.search"],
  };
}

async function manifestOf(
  def: WorkflowDefinitionInput<unknown, unknown>,
  registry: ToolRegistry = { "kb.search": searchTool() },
  outer?: `sha256:${string}`,
) {
  const caps = await snapshotDefinition(defineWorkflow(def), registry);
  return { caps, manifest: plannerManifest(caps.snapshot, caps.definitionHash, outer) };
}

describe("plannerManifest", () => {
  it("has exactly the seed's Stage 4 fields for the worked example", async () => {
    const caps = await snapshotDefinition(summarizeTicket, {});
    const manifest = plannerManifest(caps.snapshot, caps.definitionHash);
    expect(Object.keys(manifest).sort()).toEqual(
      [
        "harnessId",
        "plannerModelSlotId",
        "systemPromptHash",
        "skillsHash",
        "workflowDefinitionHash",
        "globalToolsHash",
        "memoryStoreIds",
      ].sort(),
    );
    expect(manifest.harnessId).toBe("workflowHarness@1.0.0");
    expect(manifest.plannerModelSlotId).toBe("gpt-5");
    expect(manifest.systemPromptHash).toBe(digestText("You design support-ticket workflows. Test code in scratch before committing."));
    expect(manifest.skillsHash).toBe(caps.snapshot.plannerConfig.skillsHash);
    expect(manifest.workflowDefinitionHash).toBe(caps.definitionHash);
    expect(manifest.globalToolsHash).toBe(digestJson([]));
    expect(manifest.memoryStoreIds).toEqual(["workflow:support.summarize-ticket", "org"]);
    for (const key of ["systemPromptHash", "skillsHash", "workflowDefinitionHash", "globalToolsHash"] as const) {
      expect(manifest[key]).toMatch(DIGEST);
    }
    expect(manifest).not.toHaveProperty("outerLoopContextHash");
  });

  it("copies the planner config from the snapshot", async () => {
    // defineWorkflow refuses unregistered harness ids, so another id is set on the defined object.
    const wf = defineWorkflow(baseInput());
    const caps = await snapshotDefinition(
      { ...wf, planner: { ...wf.planner, harness: "customHarness@2.0.0" } },
      { "kb.search": searchTool() },
    );
    const manifest = plannerManifest(caps.snapshot, caps.definitionHash);
    expect(manifest).toMatchObject({
      harnessId: "customHarness@2.0.0",
      plannerModelSlotId: "gpt-5",
      systemPromptHash: caps.snapshot.plannerConfig.systemHash,
      skillsHash: caps.snapshot.plannerConfig.skillsHash,
      workflowDefinitionHash: caps.definitionHash,
    });
  });

  it("hashes the tool set as ids with descriptor hashes", async () => {
    const { caps, manifest } = await manifestOf(baseInput());
    expect(manifest.globalToolsHash).toBe(digestJson(caps.snapshot.tools.map((t) => ({ id: t.id, descriptorHash: t.descriptorHash }))));
    expect(manifest.globalToolsHash).toBe(toolsHash(caps.snapshot));
  });
});

describe("manifestHash", () => {
  it("is digestJson(manifest), independent of key order", async () => {
    const { manifest } = await manifestOf(baseInput());
    expect(manifestHash(manifest)).toBe(digestJson(manifest));
    expect(manifestHash(manifest)).toMatch(DIGEST);
    const reordered = Object.fromEntries(Object.entries(manifest).reverse()) as PlannerManifest;
    expect(manifestHash(reordered)).toBe(manifestHash(manifest));
  });

  it("is stable across runs of the same definition", async () => {
    const a = await manifestOf(baseInput());
    const b = await manifestOf(baseInput());
    expect(manifestHash(b.manifest)).toBe(manifestHash(a.manifest));
  });

  it("changes when outerLoopContextHash is given, and with its value", async () => {
    const plain = (await manifestOf(baseInput())).manifest;
    const outer1 = digestJson({ cycle: 1 });
    const outer2 = digestJson({ cycle: 2 });
    const replan1 = (await manifestOf(baseInput(), undefined, outer1)).manifest;
    const replan2 = (await manifestOf(baseInput(), undefined, outer2)).manifest;
    expect(replan1.outerLoopContextHash).toBe(outer1);
    expect(manifestHash(replan1)).not.toBe(manifestHash(plain));
    expect(manifestHash(replan2)).not.toBe(manifestHash(replan1));
    const { outerLoopContextHash: _drop, ...rest } = replan1;
    expect(rest).toEqual(plain);
  });

  it("changes with the planner system prompt, skills, harness, tools and definition", async () => {
    const base = manifestHash((await manifestOf(baseInput())).manifest);
    const b = baseInput();
    const variants = [
      { ...b, planner: { ...b.planner, system: "Other prompt." } },
      { ...b, planner: { ...b.planner, skills: [skill({ name: "triage", description: "d", body: "changed" })] } },
      { ...b, planner: { ...b.planner, model: mock("o3") } },
      { ...b, description: "Triage a support ticket." },
    ];
    const hashes = [base];
    for (const v of variants) hashes.push(manifestHash((await manifestOf(v)).manifest));
    hashes.push(manifestHash((await manifestOf(baseInput(), { "kb.search": searchTool("Search the docs") })).manifest));
    const wf = defineWorkflow(b);
    const otherHarness = await snapshotDefinition(
      { ...wf, planner: { ...wf.planner, harness: "workflowHarness@1.0.1" } },
      { "kb.search": searchTool() },
    );
    hashes.push(manifestHash(plannerManifest(otherHarness.snapshot, otherHarness.definitionHash)));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it("changes the globalToolsHash (not only the definition hash) when a tool's descriptor changes", async () => {
    const a = (await manifestOf(baseInput())).manifest;
    const b = (await manifestOf(baseInput(), { "kb.search": searchTool("Search the docs") })).manifest;
    expect(b.globalToolsHash).not.toBe(a.globalToolsHash);
  });
});

describe("memoryStoreIds", () => {
  it("mounts the workflow and org stores by default", async () => {
    const { manifest } = await manifestOf(baseInput());
    expect(manifest.memoryStoreIds).toEqual(["workflow:support.triage", "org"]);
  });

  it('drops a store whose mode is "none"', async () => {
    expect((await manifestOf({ ...baseInput(), memory: { workflow: "none" } })).manifest.memoryStoreIds).toEqual(["org"]);
    expect((await manifestOf({ ...baseInput(), memory: { org: "none" } })).manifest.memoryStoreIds).toEqual(["workflow:support.triage"]);
    expect((await manifestOf({ ...baseInput(), memory: { workflow: "none", org: "none" } })).manifest.memoryStoreIds).toEqual([]);
  });

  it('keeps "ro" and "rw" stores', async () => {
    expect((await manifestOf({ ...baseInput(), memory: { workflow: "ro", org: "rw" } })).manifest.memoryStoreIds).toEqual([
      "workflow:support.triage",
      "org",
    ]);
  });

  it("adds attached stores, sorted by id", async () => {
    const { caps, manifest } = await manifestOf({
      ...baseInput(),
      memory: {
        org: "none",
        attached: [
          { id: "runbooks", mode: "rw" },
          { id: "kb", mode: "ro" },
        ],
      },
    });
    expect(manifest.memoryStoreIds).toEqual(["workflow:support.triage", "attached:kb", "attached:runbooks"]);
    expect(memoryStoreIds(caps.snapshot)).toEqual(manifest.memoryStoreIds);
  });

  it("changes the manifest hash when a store is removed", async () => {
    const a = manifestHash((await manifestOf(baseInput())).manifest);
    const b = manifestHash((await manifestOf({ ...baseInput(), memory: { org: "none" } })).manifest);
    expect(b).not.toBe(a);
  });
});
