import { describe, expect, it } from "vitest";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { extractPlanTask } from "../../src/harness/planner-prompt.ts";
import { defineWorkflow, type SuperviseDecision, type SuperviseInput } from "../../src/sdk/define-workflow.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";
import { promptText, resolverFor, scriptedPlanner, scriptedWorker } from "../support/scripted-models.ts";

const INPUT = { ticketId: "T-9", transcript: "The invoice was charged twice." };

function withOuterLoop(maxCycles: number, decide: (c: SuperviseInput) => SuperviseDecision) {
  const calls: SuperviseInput[] = [];
  const definition = defineWorkflow({
    id: summarizeTicket.id,
    description: summarizeTicket.description,
    input: summarizeTicket.input,
    output: summarizeTicket.output,
    models: summarizeTicket.models,
    planner: summarizeTicket.planner,
    outerLoop: {
      maxCycles,
      supervise: (c) => {
        calls.push(c);
        return decide(c);
      },
    },
  });
  return { definition, calls };
}

describe("outer loop: supervise, re-plan with prior cycles, outer_loop_exhausted", () => {
  it("re-plans once with the prior cycle as context, each cycle its own planner session and manifest", async () => {
    const { definition, calls } = withOuterLoop(3, (c) =>
      c.cycleNumber === 1 ? { decision: "replan", summary: "Severity was too low." } : { decision: "accept" },
    );
    const planner = scriptedPlanner();
    const world = new MemoryWorld({ models: resolverFor(planner, scriptedWorker()) });
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_outer" });
    expect(result.status).toBe("completed");
    expect(calls.map((c) => c.cycleNumber)).toEqual([1, 2]);
    const events = (await world.logs.get("run_outer")?.all()) ?? [];
    const sessions = events.filter((e) => e.type === "harness.session.started" && (e.payload as { role: string }).role === "planner");
    expect(sessions.map((e) => (e.payload as { sessionId: string }).sessionId)).toEqual(["planner:c1", "planner:c2"]);
    const [h1, h2] = sessions.map((e) => (e.payload as { manifestHash: string }).manifestHash);
    expect(h1).not.toBe(h2);
    expect((sessions[1]?.payload as { manifest: { outerLoopContextHash?: string } } | undefined)?.manifest.outerLoopContextHash).toMatch(
      /^sha256:/,
    );
    const cycles = events
      .filter((e) => e.type === "OuterLoopCycleCompleted")
      .map((e) => e.payload as { cycleNumber: number; decision: string; summary?: string });
    expect(cycles).toEqual([
      expect.objectContaining({ cycleNumber: 1, decision: "replan", summary: "Severity was too low." }),
      expect.objectContaining({ cycleNumber: 2, decision: "accept" }),
    ]);
    // The second cycle's planner saw the first cycle in its task.
    const contexts = planner.doGenerateCalls.map((call) => extractPlanTask(promptText(call))?.outerLoopContext);
    expect(contexts[0]).toEqual({ cycleNumber: 1, maxCycles: 3, isFinalCycle: false, priorCycles: [] });
    expect(
      (sessions[0]?.payload as { manifest: { outerLoopContextHash?: string } } | undefined)?.manifest.outerLoopContextHash,
    ).toBeUndefined();
    expect(contexts.at(-1)).toMatchObject({
      cycleNumber: 2,
      maxCycles: 3,
      isFinalCycle: false,
      priorCycles: [{ cycleNumber: 1, status: "completed", summary: "Severity was too low." }],
    });
    expect(events.filter((e) => e.type === "RunStarted").map((e) => (e.payload as { cycle: number }).cycle)).toEqual([1, 2]);
  });

  it("fails with outer_loop_exhausted when supervise never accepts", async () => {
    const { definition, calls } = withOuterLoop(2, () => ({ decision: "replan", summary: "Not good enough." }));
    const world = new MemoryWorld({ models: resolverFor(scriptedPlanner(), scriptedWorker()) });
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_outer_exhausted" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("outer_loop_exhausted");
    expect(calls).toHaveLength(2);
  });

  it("replays recorded cycles: a resumed run calls neither the planner of cycle 1 nor supervise for it again", async () => {
    const { definition, calls } = withOuterLoop(3, (c) =>
      c.cycleNumber === 1 ? { decision: "replan", summary: "again" } : { decision: "accept" },
    );
    const planner = scriptedPlanner();
    const world = new MemoryWorld({ models: resolverFor(planner, scriptedWorker()) });
    await runWorkflow(definition, INPUT, { world, runId: "run_outer_replay" });
    const log = world.logs.get("run_outer_replay");
    const events = (await log?.all()) ?? [];
    const cut = events.findIndex((e) => e.type === "OuterLoopCycleCompleted");
    log?.truncateAfter(cut + 1);
    const plannerCallsBefore = planner.doGenerateCalls.length;
    const superviseCallsBefore = calls.length;
    const again = await runWorkflow(definition, INPUT, { world, runId: "run_outer_replay" });
    expect(again.status).toBe("completed");
    expect(calls.slice(superviseCallsBefore).map((c) => c.cycleNumber)).toEqual([2]);
    expect(planner.doGenerateCalls.length - plannerCallsBefore).toBe(2);
  });
});
