import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { harnessFor } from "../../src/harness/harness-registry.ts";
import { runPlannerSession } from "../../src/harness/planner-session.ts";
import { runWorkerSession } from "../../src/harness/worker-session.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { DEFAULT_HARNESS_ID, defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { HarnessUnknownError } from "../../src/sdk/errors/harness-unknown-error.ts";
import { WorkflowDefinitionError } from "../../src/sdk/errors/workflow-definition-error.ts";
import { HARNESS_IDS } from "../../src/sdk/harness-ids.ts";
import { model } from "../../src/sdk/model.ts";

const mock = (modelId = "m-1") => new MockLanguageModelV4({ provider: "mock", modelId });

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

function thrown(def: WorkflowDefinitionInput<unknown, unknown>): unknown {
  try {
    defineWorkflow(def);
  } catch (error) {
    return error;
  }
  throw new Error("defineWorkflow did not throw");
}

describe("harness ids: a registry, and unknown ids refused when the workflow is defined", () => {
  it("registers the built-in harness under its default id, with every session role", () => {
    expect(HARNESS_IDS).toEqual([DEFAULT_HARNESS_ID]);
    const harness = harnessFor(DEFAULT_HARNESS_ID);
    expect(harness.id).toBe("workflowHarness@1.0.0");
    expect(harness.plan).toBe(runPlannerSession);
    expect(harness.work).toBe(runWorkerSession);
    expect(defineWorkflow({ ...base(), planner: { ...base().planner, harness: DEFAULT_HARNESS_ID } }).planner.harness).toBe(
      DEFAULT_HARNESS_ID,
    );
  });

  it("refuses an unknown planner or worker harness with harness_unknown, naming each and the known ids", () => {
    const error = thrown({ ...base(), planner: { ...base().planner, harness: "workflowHarness@2.0.0" }, worker: { harness: "mine" } });
    expect(error).toBeInstanceOf(HarnessUnknownError);
    const e = error as HarnessUnknownError;
    expect(e.code).toBe("harness_unknown");
    expect(e.unknown).toEqual([
      { path: "$.planner.harness", harnessId: "workflowHarness@2.0.0" },
      { path: "$.worker.harness", harnessId: "mine" },
    ]);
    expect(e.known).toEqual(["workflowHarness@1.0.0"]);
    expect(e.message).toContain('$.worker.harness = "mine"');
    expect(e.toJSON().code).toBe("harness_unknown");
  });

  it("a definition built around defineWorkflow still cannot run under an unknown harness", () => {
    expect(() => harnessFor("nope@1", "worker", "support.triage")).toThrow(HarnessUnknownError);
  });
});

describe("memory.attached: names and modes", () => {
  it("refuses the built-in store names, duplicates and bad modes", () => {
    const error = thrown({
      ...base(),
      memory: {
        attached: [
          { id: "workflow", mode: "rw" },
          { id: "kb", mode: "ro" },
          { id: "kb", mode: "rw" },
          { id: "notes", mode: "none" as "rw" },
        ],
      },
    }) as WorkflowDefinitionError;
    expect(error).toBeInstanceOf(WorkflowDefinitionError);
    expect(error.findings.map((f) => [f.code, f.path])).toEqual([
      ["definition.invalid_memory_store", "$.memory.attached[0].id"],
      ["definition.invalid_memory_store", "$.memory.attached[2]"],
      ["definition.invalid_memory_mode", "$.memory.attached[3].mode"],
    ]);
  });
});

describe("sandbox.env: names of bound secrets only", () => {
  it("accepts secrets the workflow binds, sorted and deduplicated, and hashes them only when authored", async () => {
    const plain = defineWorkflow({ ...base(), secrets: ["API_KEY"] });
    const withEnv = defineWorkflow({ ...base(), secrets: ["API_KEY", "OTHER"], sandbox: { env: ["OTHER", "API_KEY", "OTHER"] } });
    expect(withEnv.sandbox).toEqual({ env: ["API_KEY", "OTHER"] });
    const a = await snapshotDefinition(plain);
    const b = await snapshotDefinition(defineWorkflow({ ...base(), secrets: ["API_KEY"], sandbox: { env: [] } }));
    const c = await snapshotDefinition(withEnv);
    expect(a.snapshot).not.toHaveProperty("sandboxEnv");
    // An empty list is not authored: the hash is the one the definition had before the option existed.
    expect(b.definitionHash).toBe(a.definitionHash);
    expect(c.snapshot.sandboxEnv).toEqual(["API_KEY", "OTHER"]);
    expect(c.definitionHash).not.toBe(a.definitionHash);
  });

  it("refuses a name the workflow does not bind as a secret", () => {
    const error = thrown({ ...base(), secrets: ["API_KEY"], sandbox: { env: ["API_KEY", "HOME"] } }) as WorkflowDefinitionError;
    expect(error).toBeInstanceOf(WorkflowDefinitionError);
    expect(error.findings.map((f) => [f.code, f.path])).toEqual([["definition.invalid_sandbox", "$.sandbox.env[1]"]]);
  });
});
