import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { extractPlanTask } from "../../src/harness/planner-prompt.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { tool } from "../../src/sdk/tool.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";
import {
  CRM_TOKEN,
  crmCalls,
  INPUT,
  lookupLwirFor,
  planTaskOf,
  replanPlanner,
  replanWorkflow,
  secretsWithToken,
} from "../support/replan-workflow.ts";
import { promptText, resolverFor, scriptedPlanner, scriptedWorker, seedLwirFor } from "../support/scripted-models.ts";

// Issue 18, "Outer loop": a failed cycle re-plans while cycles remain, the next planner is told
// the cause, the step and the (redacted) error, and only the last cycle's failure ends the run.

beforeEach(() => {
  crmCalls.length = 0;
});

const payloads = <T>(events: readonly RunEvent[], type: string) => events.filter((e) => e.type === type).map((e) => e.payload as T);
const plannerSessions = (events: readonly RunEvent[]) =>
  payloads<{ sessionId: string; role: string }>(events, "harness.session.started")
    .filter((p) => p.role === "planner")
    .map((p) => p.sessionId);

async function worldWith(planner = replanPlanner(), worker = scriptedWorker()) {
  return { world: new MemoryWorld({ models: resolverFor(planner, worker), secrets: await secretsWithToken() }), planner, worker };
}

describe("outer loop: a failed cycle re-plans", () => {
  it("cycle 1 fails at a step; cycle 2 is planned knowing the cause, the step and the redacted error, and completes", async () => {
    const { definition, supervised } = replanWorkflow(3, (c) =>
      c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" },
    );
    const { world, planner, worker } = await worldWith();
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_replan" });
    expect(result.status).toBe("completed");
    expect(result.output).toEqual({ summary: "The customer cannot log in since Monday.", severity: "high" });
    expect(crmCalls).toEqual(["T-9"]);
    const events = await world.events("run_replan");
    expect(plannerSessions(events)).toEqual(["planner:c1", "planner:c2"]);

    // supervise saw the failed cycle (redacted), then the completed one.
    expect(supervised.map((c) => [c.cycleNumber, c.status])).toEqual([
      [1, "failed"],
      [2, "completed"],
    ]);
    expect(supervised[0]?.output).toBeNull();
    expect(supervised[0]?.failure).toEqual({
      causeCode: "step_failed",
      stepId: "lookup",
      message: 'Step c1/lookup failed after 1 attempt: Tool "crm" failed: CRM refused token [redacted:CRM_TOKEN] for T-9',
    });

    // The journaled cycle, as every reader folds it.
    const [failed, accepted] = payloads<Record<string, unknown>>(events, "OuterLoopCycleCompleted");
    expect(failed).toMatchObject({
      cycleNumber: 1,
      status: "failed",
      output: null,
      decision: "replan",
      failure: {
        causeCode: "step_failed",
        stepId: "lookup",
        stepPath: "c1/lookup",
        details: { stepPath: "c1/lookup", code: "tool_failed" },
      },
    });
    expect(failed?.summary).toBe(
      'Cycle 1 failed (step_failed) at step "lookup": Step c1/lookup failed after 1 attempt: Tool "crm" failed: CRM refused token [redacted:CRM_TOKEN] for T-9',
    );
    expect(accepted).toMatchObject({ cycleNumber: 2, status: "completed", decision: "accept" });

    // Cycle 2's planner got the failure in its plan task, redacted; no prompt holds the token.
    const c2Calls = planner.doGenerateCalls.filter((call) => planTaskOf(call).outerLoopContext?.cycleNumber === 2);
    expect(c2Calls.length).toBeGreaterThan(0);
    const context = extractPlanTask(promptText(c2Calls[0] as (typeof c2Calls)[0]))?.outerLoopContext;
    expect(context).toMatchObject({
      cycleNumber: 2,
      maxCycles: 3,
      isFinalCycle: false,
      priorCycles: [
        {
          cycleNumber: 1,
          status: "failed",
          output: null,
          failure: { causeCode: "step_failed", stepId: "lookup", message: expect.stringContaining("[redacted:CRM_TOKEN]") },
        },
      ],
    });
    const prompt = promptText(c2Calls[0] as (typeof c2Calls)[0]);
    for (const text of ["step_failed", "lookup", "CRM refused token [redacted:CRM_TOKEN]", "An earlier plan of this run failed"])
      expect(prompt).toContain(text);
    // Cycle 1 had nothing to avoid: its prompt has no such note (so runs without a failed cycle keep their request hashes).
    expect(promptText(planner.doGenerateCalls[0] as (typeof c2Calls)[0])).not.toContain("An earlier plan of this run failed");
    for (const call of [...planner.doGenerateCalls, ...worker.doGenerateCalls]) expect(promptText(call)).not.toContain(CRM_TOKEN);
    expect(JSON.stringify(events)).not.toContain(CRM_TOKEN);
    // The re-plan's manifest is its own: it carries the prior cycles' hash.
    const manifests = payloads<{ manifest: { outerLoopContextHash?: string } }>(events, "harness.session.started")
      .map((p) => p.manifest.outerLoopContextHash)
      .filter((h) => h !== undefined);
    expect(manifests).toHaveLength(1);

    // Replay of the finished log, cut before each journaled cycle, calls no model and no tool.
    const calls = () => planner.doGenerateCalls.length + worker.doGenerateCalls.length + crmCalls.length;
    const before = calls();
    const log = world.logs.get("run_replan");
    const cut = events.findIndex((e) => e.type === "OuterLoopCycleCompleted" && (e.payload as { cycleNumber: number }).cycleNumber === 2);
    log?.truncateAfter(cut);
    const again = await runWorkflow(definition, INPUT, { world, runId: "run_replan" });
    expect(again.status).toBe("completed");
    expect(calls()).toBe(before);
    const replayed = await world.events("run_replan");
    expect(replayed.map((e) => [e.type, e.payload])).toEqual(events.map((e) => [e.type, e.payload]));
  });

  it("a crash between the step's failure and the journaled cycle re-derives the same failure without calling the tool", async () => {
    const accepting = replanWorkflow(2, (c) => (c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" }));
    const { world, planner } = await worldWith();
    await runWorkflow(accepting.definition, INPUT, { world, runId: "run_replan_crash" });
    const events = await world.events("run_replan_crash");
    const failedAt = events.findIndex((e) => e.type === "StepFailed");
    world.logs.get("run_replan_crash")?.truncateAfter(failedAt + 1);
    const plannerCalls = planner.doGenerateCalls.length;
    const again = await runWorkflow(accepting.definition, INPUT, { world, runId: "run_replan_crash" });
    expect(again.status).toBe("completed");
    expect(crmCalls).toEqual(["T-9"]);
    const replayed = await world.events("run_replan_crash");
    expect(payloads(replayed, "OuterLoopCycleCompleted")[0]).toEqual(payloads(events, "OuterLoopCycleCompleted")[0]);
    // Cycle 2 was planned again (it had not begun), with the same context: the same manifest.
    expect(planner.doGenerateCalls.length).toBeGreaterThan(plannerCalls);
    expect(payloads(replayed, "harness.session.started")).toEqual(payloads(events, "harness.session.started"));
  });

  it("the final cycle's failure ends the run with that cycle's cause (not outer_loop_exhausted)", async () => {
    const { definition, supervised } = replanWorkflow(2, () => ({ decision: "replan", summary: "Try without the CRM." }));
    const { world } = await worldWith(replanPlanner([1, 2]));
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_replan_final" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("step_failed");
    expect(result.cause?.message).toContain("c2/lookup");
    expect(result.cause?.message).not.toContain(CRM_TOKEN);
    expect(supervised.map((c) => [c.cycleNumber, c.status])).toEqual([[1, "failed"]]);
    const events = await world.events("run_replan_final");
    expect(plannerSessions(events)).toEqual(["planner:c1", "planner:c2"]);
    // supervise's own summary is what the next planner reads; the failure rides beside it.
    expect(payloads(events, "OuterLoopCycleCompleted")).toEqual([
      expect.objectContaining({ cycleNumber: 1, status: "failed", summary: "Try without the CRM.", decision: "replan" }),
    ]);
    expect(crmCalls).toEqual(["T-9", "T-9"]);
  });

  it("supervise may accept a failed cycle: the run ends at once with its failure, also when resumed after the decision", async () => {
    const { definition, supervised } = replanWorkflow(3, () => ({ decision: "accept" }));
    const { world, planner } = await worldWith();
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_replan_stop" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("step_failed");
    expect(supervised).toHaveLength(1);
    const events = await world.events("run_replan_stop");
    expect(plannerSessions(events)).toEqual(["planner:c1"]);
    const ended = events.at(-1);
    const decided = events.findIndex((e) => e.type === "OuterLoopCycleCompleted");
    expect(events[decided]?.payload).toMatchObject({ status: "failed", decision: "accept" });
    // Resumed between the journaled decision and RunFailed: the same ending, nothing called.
    world.logs.get("run_replan_stop")?.truncateAfter(decided + 1);
    const calls = planner.doGenerateCalls.length;
    const again = await runWorkflow(definition, INPUT, { world, runId: "run_replan_stop" });
    expect(again.status).toBe("failed");
    expect((await world.events("run_replan_stop")).at(-1)?.payload).toEqual(ended?.payload);
    expect(planner.doGenerateCalls.length).toBe(calls);
    expect(supervised).toHaveLength(1);
  });

  it("a planner that never produces a valid plan (validation exhausted) re-plans too", async () => {
    const { definition, supervised } = replanWorkflow(2, (c) =>
      c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" },
    );
    // Cycle 1's drafts all name the wrong workflow (a binding error); cycle 2 drafts the seed plan.
    const planner = scriptedPlanner([
      (options) =>
        planTaskOf(options).outerLoopContext?.cycleNumber === 1
          ? { ...seedLwirFor(options), metadata: { name: "someone.else", version: "0.1.0" } }
          : seedLwirFor(options),
    ]);
    const { world } = await worldWith(planner);
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_replan_planner" });
    expect(result.status).toBe("completed");
    expect(supervised[0]).toMatchObject({ cycleNumber: 1, status: "failed", failure: { causeCode: "planner_validation_exhausted" } });
    const events = await world.events("run_replan_planner");
    expect(payloads(events, "WorkflowVersionRegistered")).toHaveLength(1);
    expect(payloads(events, "RunStarted")).toEqual([expect.objectContaining({ cycle: 2 })]);
  });
});

describe("outer loop: the next planner is told what the failed cycle already did", () => {
  it("steps that succeeded before the failure are listed (redacted, capped) in the journaled failure and the next plan task", async () => {
    const charges: string[] = [];
    const charge = tool({
      description: "Charges the customer (not idempotent)",
      inputSchema: z.object({ ticketId: z.string() }),
      outputSchema: z.object({ chargeId: z.string(), receipt: z.string() }),
      execute: async ({ ticketId }: { ticketId: string }) => {
        charges.push(ticketId);
        return { chargeId: `ch_${ticketId}`, receipt: "r".repeat(5_000) };
      },
    });
    const { definition } = replanWorkflow(2, (c) => (c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" }));
    const withCharge = { ...definition, tools: { ...definition.tools, charge } };
    const planner = scriptedPlanner([
      (options) => {
        if (planTaskOf(options).outerLoopContext?.cycleNumber !== 1) return seedLwirFor(options);
        const lwir = lookupLwirFor(options);
        const [lookup] = lwir.steps as Record<string, unknown>[];
        return {
          ...lwir,
          permissions: { models: [], tools: ["charge", "crm"], secrets: ["CRM_TOKEN"], network: [] },
          steps: [
            {
              id: "charge",
              uses: "tool.call",
              needs: [],
              with: { tool: "charge", input: { ticketId: "{{ input.ticketId }}" } },
              output: { mode: "json" },
            },
            { ...lookup, needs: ["charge"] },
          ],
        };
      },
    ]);
    const { world } = await worldWith(planner);
    const result = await runWorkflow(withCharge, INPUT, { world, runId: "run_replan_effects" });
    expect(result.status).toBe("completed");
    expect(charges).toEqual(["T-9"]);
    const events = await world.events("run_replan_effects");
    const [failed] = payloads<{
      failure: { succeededSteps?: { stepId: string; stepPath: string; output?: unknown; outputPreview?: string }[] };
    }>(events, "OuterLoopCycleCompleted");
    expect(failed?.failure.succeededSteps).toEqual([{ stepId: "charge", stepPath: "c1/charge", outputPreview: expect.any(String) }]);
    const preview = failed?.failure.succeededSteps?.[0]?.outputPreview ?? "";
    expect(preview.length).toBe(2_000);
    expect(preview).toContain('"chargeId":"ch_T-9"');
    const c2 = planner.doGenerateCalls.find((call) => planTaskOf(call).outerLoopContext?.cycleNumber === 2);
    expect(planTaskOf(c2 as NonNullable<typeof c2>).outerLoopContext?.priorCycles[0]?.failure?.succeededSteps?.[0]?.stepId).toBe("charge");
    expect(promptText(c2 as NonNullable<typeof c2>)).toContain("failure.succeededSteps already ran");
  });

  it("a failed cycle with no succeeded step records no succeededSteps (its record keeps the bytes it had)", async () => {
    const { definition } = replanWorkflow(2, (c) => (c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" }));
    const { world, planner } = await worldWith();
    await runWorkflow(definition, INPUT, { world, runId: "run_replan_no_effects" });
    const [failed] = payloads<{ failure: Record<string, unknown> }>(await world.events("run_replan_no_effects"), "OuterLoopCycleCompleted");
    expect(Object.keys(failed?.failure ?? {}).sort()).toEqual(["causeCode", "details", "message", "stepId", "stepPath"]);
    for (const call of planner.doGenerateCalls) expect(promptText(call)).not.toContain("succeededSteps");
  });
});

describe("outer loop: a supervise that throws ends the run with a named cause, not internal_error", () => {
  it("a supervise written before failed cycles were supervised (reads output) ends the run with the cycle's own failure", async () => {
    const { definition, supervised } = replanWorkflow(3, (c) =>
      (c.output as { severity: string }).severity === "high" ? { decision: "accept" } : { decision: "replan", summary: "" },
    );
    const { world, planner } = await worldWith();
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_supervise_throws_failed" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("step_failed");
    expect(result.cause?.message).toContain("c1/lookup");
    expect(result.cause?.details).toMatchObject({
      stepPath: "c1/lookup",
      code: "tool_failed",
      superviseError: expect.stringContaining("TypeError"),
    });
    // Called once: the throw is not retried as a crash of the slice.
    expect(supervised).toHaveLength(1);
    const events = await world.events("run_supervise_throws_failed");
    expect(plannerSessions(events)).toEqual(["planner:c1"]);
    expect(payloads(events, "OuterLoopCycleCompleted")).toEqual([]);
    expect(planner.doGenerateCalls.length).toBeGreaterThan(0);
  });

  it("a supervise that throws on a completed cycle ends the run with supervise_failed", async () => {
    const { definition, supervised } = replanWorkflow(3, (c) => {
      if (c.status === "failed") return { decision: "replan", summary: "" };
      throw new Error(`cannot judge token ${CRM_TOKEN}`);
    });
    const { world } = await worldWith();
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_supervise_throws_completed" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("supervise_failed");
    expect(result.cause?.message).toContain("supervise threw after cycle 2: Error: cannot judge token [redacted:CRM_TOKEN]");
    expect(supervised.map((c) => [c.cycleNumber, c.status])).toEqual([
      [1, "failed"],
      [2, "completed"],
    ]);
    expect(JSON.stringify(await world.events("run_supervise_throws_completed"))).not.toContain(CRM_TOKEN);
  });
});

describe("outer loop: failures a new plan cannot fix end the run at once", () => {
  it("a step timeout is not re-planned", async () => {
    const hang = tool({
      description: "Never answers",
      inputSchema: z.object({ ticketId: z.string() }),
      outputSchema: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
      execute: (_input: unknown, options: { abortSignal?: AbortSignal }) =>
        new Promise<never>((_resolve, reject) => options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason))),
    });
    const { definition, supervised } = replanWorkflow(3, () => ({ decision: "replan", summary: "" }));
    const withHang = { ...definition, tools: { ...definition.tools, hang } };
    const planner = scriptedPlanner([
      (options) => {
        const lwir = lookupLwirFor(options);
        const [step] = lwir.steps as Record<string, unknown>[];
        return {
          ...lwir,
          permissions: { models: [], tools: ["hang"], secrets: [], network: [] },
          steps: [{ ...step, id: "wait", with: { tool: "hang", input: { ticketId: "{{ input.ticketId }}" } }, timeoutMs: 30 }],
        };
      },
    ]);
    const { world } = await worldWith(planner);
    const result = await runWorkflow(withHang, INPUT, { world, runId: "run_no_replan_timeout" });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("step_failed");
    expect(result.cause?.message).toContain("timeout");
    expect(supervised).toHaveLength(0);
    const events = await world.events("run_no_replan_timeout");
    expect(plannerSessions(events)).toEqual(["planner:c1"]);
    expect(payloads(events, "OuterLoopCycleCompleted")).toEqual([]);
  });

  it("LWIR given with the run is never re-planned: its failure ends the run", async () => {
    const { definition, supervised } = replanWorkflow(3, () => ({ decision: "replan", summary: "" }));
    const planner = replanPlanner();
    const { world } = await worldWith(planner);
    // The same plan the scripted planner writes for cycle 1, given up front.
    const lwir = lookupLwirFor({
      prompt: [{ role: "user", content: [{ type: "text", text: await planTaskText(definition) }] }],
    } as never);
    const result = await runWorkflow(definition, INPUT, { world, runId: "run_no_replan_given", lwir });
    expect(result.status).toBe("failed");
    expect(result.cause?.code).toBe("step_failed");
    expect(supervised).toHaveLength(0);
    expect(planner.doGenerateCalls).toHaveLength(0);
  });
});

/** The plan task the harness would write for this definition, as prompt text. */
async function planTaskText(definition: ReturnType<typeof replanWorkflow>["definition"]): Promise<string> {
  const { planTask } = await import("../../src/harness/planner-prompt.ts");
  const { snapshotDefinition } = await import("../../src/identity/definition-snapshot.ts");
  const { PLAN_TASK_OPEN, PLAN_TASK_CLOSE } = await import("../../src/ports/planner-protocol.ts");
  const caps = await snapshotDefinition(definition, {});
  return `${PLAN_TASK_OPEN}${JSON.stringify(planTask(caps, INPUT))}${PLAN_TASK_CLOSE}`;
}
