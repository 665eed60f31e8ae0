import { describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";

const fixedClock = { now: () => 1_700_000_000_000 };

describe("the compile pipeline end to end with the offline model (memory world)", () => {
  it("plans, registers, locks and runs the seed example", async () => {
    const world = new MemoryWorld({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), clock: fixedClock });
    const result = await runWorkflow(
      summarizeTicket,
      { ticketId: "T-1", transcript: "Customer cannot log in since Monday." },
      { world, runId: "run_offline_1" },
    );
    expect(result.cause).toBeUndefined();
    expect(result.status).toBe("completed");
    expect(result.versionId).toMatch(/^wfver_[0-9a-f]{16}$/);
    const output = result.output as { summary: string; severity: string };
    expect(["low", "medium", "high"]).toContain(output.severity);
    expect(typeof output.summary).toBe("string");
    const events = await world.logs.get("run_offline_1")?.all();
    expect(events?.map((e) => e.type)).toEqual([
      "RunRequested",
      "harness.session.started",
      "harness.model.called",
      "harness.model.responded",
      "harness.tool_call.started",
      "harness.tool_call.succeeded",
      "harness.model.called",
      "harness.model.responded",
      "harness.tool_call.started",
      "harness.tool_call.succeeded",
      "harness.session.completed",
      "WorkflowVersionRegistered",
      "RunStarted",
      "StepScheduled",
      "StepStarted",
      "harness.session.started",
      "harness.model.called",
      "harness.model.responded",
      "harness.session.completed",
      "StepSucceeded",
      "RunCompleted",
    ]);
  });
});
