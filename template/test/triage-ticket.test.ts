import { MemoryWorld, mockModel, modelsFor, offlineModels, runWorkflow } from "little-workflow/testing";
import { describe, expect, it } from "vitest";
import { customerOf, lookupCustomer } from "../src/tools/lookup-customer.ts";
import { TriageOutput, triageTicket } from "../src/workflows/triage-ticket.ts";

// Plain Node: no Worker, no network, no API key. The run is planned, validated, locked and
// executed as in the Worker; only the models are stand-ins.
const input = { ticketId: "T-1", message: "I was charged twice for my subscription." };
const tools = { lookupCustomer };

describe("support.triage-ticket", () => {
  it("plans and completes with the offline models: lookupCustomer runs on the ticket, the output fits the schema", async () => {
    const world = new MemoryWorld({ models: offlineModels() });
    const result = await runWorkflow(triageTicket, input, { world, tools });
    expect(result.status).toBe("completed");
    expect(TriageOutput.safeParse(result.output).success).toBe(true);
    // The offline planner calls every tool the input can feed (ticketId here), then a model step.
    const steps = (await world.events(result.runId)).flatMap((e) => (e.type === "StepSucceeded" ? [e.payload] : []));
    expect(steps.find((s) => s.stepPath.endsWith("lookup_customer"))?.output).toEqual(customerOf(input.ticketId));
  });

  it("returns what the worker model answers", async () => {
    const worker = mockModel({ summary: "Charged twice.", priority: "urgent" });
    const world = new MemoryWorld({ models: modelsFor({ worker }) });
    const result = await runWorkflow(triageTicket, input, { world, tools });
    expect(result).toMatchObject({ status: "completed", output: { summary: "Charged twice.", priority: "urgent" } });
    expect(worker.calls.join("\n")).toContain("charged twice");
  });
});
