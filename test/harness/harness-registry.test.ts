/**
 * Issue 18, "hashed but inert": `planner.harness` / `worker.harness` select a harness from the
 * registry. `defineWorkflow` refuses an unknown id (test/sdk/check-runtime-config.test.ts); a
 * definition built around it still cannot run under a harness nobody registered: the run object
 * fails it closed (`workflow_definition_invalid`, naming the id) before any model call.
 */
import { afterEach, describe, expect, it } from "vitest";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";
import { resolverFor, scriptedPlanner, scriptedWorker } from "../support/scripted-models.ts";

afterEach(() => overrideWiring({}));

describe("harness registry (run object)", () => {
  it("a definition naming an unregistered harness fails closed as an invalid definition and calls no model", async () => {
    const defined = defineWorkflow({ ...summarizeTicketDefinition, id: "support.harness-unknown" });
    const definition = { ...defined, planner: { ...defined.planner, harness: "someoneElsesHarness@9.0.0" } };
    const planner = scriptedPlanner();
    overrideWiring({ models: resolverFor(planner, scriptedWorker()), workflows: catalogOf([{ definition, tools: {} }]) });
    const runId = `run_harness_${crypto.randomUUID().slice(0, 8)}`;
    await runStub(runId).start({
      runId,
      workflowId: definition.id,
      input: { ticketId: "T-1", transcript: "x" },
      trigger: { kind: "http" },
    });
    const view = await driveToEnd(runId);
    expect(view.status).toBe("failed");
    expect(view.cause?.code).toBe("workflow_definition_invalid");
    expect(view.cause?.message).toContain('$.planner.harness = "someoneElsesHarness@9.0.0"');
    expect(planner.doGenerateCalls).toHaveLength(0);
  });

  it("an unregistered worker harness fails the run before the planner runs (both ids resolve before compiling)", async () => {
    const defined = defineWorkflow({ ...summarizeTicketDefinition, id: "support.worker-harness-unknown" });
    const definition = { ...defined, worker: { ...defined.worker, harness: "someoneElsesWorker@2.0.0" } };
    const planner = scriptedPlanner();
    const worker = scriptedWorker();
    overrideWiring({ models: resolverFor(planner, worker), workflows: catalogOf([{ definition, tools: {} }]) });
    const runId = `run_wharness_${crypto.randomUUID().slice(0, 8)}`;
    await runStub(runId).start({
      runId,
      workflowId: definition.id,
      input: { ticketId: "T-1", transcript: "x" },
      trigger: { kind: "http" },
    });
    const view = await driveToEnd(runId);
    expect(view.status).toBe("failed");
    expect(view.cause?.code).toBe("workflow_definition_invalid");
    expect(view.cause?.message).toContain('$.worker.harness = "someoneElsesWorker@2.0.0"');
    expect(planner.doGenerateCalls).toHaveLength(0);
    expect(worker.doGenerateCalls).toHaveLength(0);
  });
});
