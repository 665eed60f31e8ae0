import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { SCHEMA_NORMALIZER } from "../../src/schema/normalize-schema.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";
import { resolverFor, scriptedPlanner, scriptedWorker } from "../support/scripted-models.ts";

// Issue 18, through the run object: a run is stopped in the window between its planner's
// `harness.session.completed` and `WorkflowVersionRegistered`, the Worker is "redeployed" with
// the workflow changed, and the run resumes. Declaring the same zod fields in another order is no
// change (schema normalizer @2); a real change fails closed with capability_drift before any call
// (the completed planner session's manifest is checked).

afterEach(() => overrideWiring({}));

const INPUT = { ticketId: "T-18", transcript: "The export button does nothing." };

const catalog = (definition: ReturnType<typeof defineWorkflow>) => catalogOf([{ definition, tools: {} }]);

const original = defineWorkflow(summarizeTicketDefinition);

/** The same workflow, every object's fields declared in reverse order. */
const reordered = defineWorkflow({
  ...summarizeTicketDefinition,
  input: z.object({ transcript: z.string(), ticketId: z.string() }),
  output: z.object({ severity: z.enum(["low", "medium", "high"]), summary: z.string() }),
});

/** A real change: one more severity the output may take. */
const changed = defineWorkflow({
  ...summarizeTicketDefinition,
  output: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high", "urgent"]) }),
});

async function resumeAfterPlanning(runId: string, next: ReturnType<typeof defineWorkflow>) {
  const planner = scriptedPlanner();
  const worker = scriptedWorker();
  let crashed = false;
  overrideWiring({
    models: resolverFor(planner, worker),
    workflows: catalog(original),
    afterAppend: (events, ctx) => {
      if (!crashed && events.some((e) => e.type === "harness.session.completed" && e.payload.role === "planner")) {
        crashed = true;
        ctx.abort();
      }
    },
  });
  await runStub(runId).start({ runId, workflowId: original.id, input: INPUT, trigger: { kind: "http" } });
  await driveToEnd(runId, 1).catch(() => undefined);
  expect(crashed, "the run stopped after its planner session completed").toBe(true);
  const before = await runStub(runId).events({ limit: 1000 });
  expect(before.map((e) => e.type)).not.toContain("WorkflowVersionRegistered");
  const calls = { planner: planner.doGenerateCalls.length, worker: worker.doGenerateCalls.length };
  overrideWiring({ models: resolverFor(planner, worker), workflows: catalog(next) });
  const view = await driveToEnd(runId);
  const events = (await runStub(runId).events({ limit: 1000 })) as RunEvent[];
  return { view, events, calls, planner, worker };
}

describe("a run resumed after a redeploy between its planner session and its registration", () => {
  it("records the schema normalizer it started with, and completes when only field order changed", async () => {
    const { view, events, calls, planner } = await resumeAfterPlanning("run_field_order_same", reordered);
    const requested = events.find((e) => e.type === "RunRequested");
    expect(requested?.type === "RunRequested" && requested.payload.schemaNormalizer).toBe(SCHEMA_NORMALIZER);
    expect(view.status, JSON.stringify(view.cause)).toBe("completed");
    // The planner session replayed from the log: no second planner call.
    expect(planner.doGenerateCalls.length).toBe(calls.planner);
    expect(events.filter((e) => e.type === "harness.session.started" && e.payload.role === "planner")).toHaveLength(1);
  });

  it("fails closed with capability_drift when the definition really changed, calling nothing after", async () => {
    const { view, events, calls, planner, worker } = await resumeAfterPlanning("run_field_order_changed", changed);
    expect(view.status).toBe("failed");
    expect(view.cause?.code).toBe("capability_drift");
    expect({ planner: planner.doGenerateCalls.length, worker: worker.doGenerateCalls.length }).toEqual(calls);
    expect(events.map((e) => e.type)).not.toContain("WorkflowVersionRegistered");
  });
});
