import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { DEFAULT_RUN_QUOTAS } from "../../src/engine/run-quotas.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import type { SuperviseDecision, SuperviseInput } from "../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";
import { CRM_TOKEN, crmCalls, INPUT, planTaskOf, replanPlanner, replanWorkflow, secretsWithToken } from "../support/replan-workflow.ts";
import { promptText, resolverFor, scriptedWorker } from "../support/scripted-models.ts";

// Issue 18, "Outer loop", through the run's Durable Object: alarms drive the run, its SQLite holds
// the log, D1 the run index. Cycle 1 fails at a step whose error quotes a secret; cycle 2 is
// planned knowing why and completes. A crash right after the failed cycle is journaled resumes at
// cycle 2 without calling anything of cycle 1 again; a quota reached as a cycle fails never re-plans.

afterEach(() => overrideWiring({}));
beforeEach(() => {
  crmCalls.length = 0;
});

const replanFailures = (c: SuperviseInput): SuperviseDecision =>
  c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" };

async function setUp(options: { crashAfterFailedCycle?: boolean; eventLogBytes?: number } = {}) {
  const { definition, supervised } = replanWorkflow(3, replanFailures);
  const planner = replanPlanner();
  const worker = scriptedWorker();
  let crashed = false;
  overrideWiring({
    models: resolverFor(planner, worker),
    workflows: catalogOf([{ definition, tools: {} }]),
    secrets: await secretsWithToken("default"),
    ...(options.eventLogBytes !== undefined ? { runQuotas: { ...DEFAULT_RUN_QUOTAS, eventLogBytes: options.eventLogBytes } } : {}),
    afterAppend: (events, ctx) => {
      const failedCycle = events.some((e) => e.type === "OuterLoopCycleCompleted" && (e.payload as { status: string }).status === "failed");
      if (options.crashAfterFailedCycle && !crashed && failedCycle) {
        crashed = true;
        ctx.abort();
      }
    },
  });
  return { definition, supervised, planner, worker, crashed: () => crashed };
}

async function runToEnd(runId: string, workflowId: string) {
  await runStub(runId).start({ runId, workflowId, input: INPUT, trigger: { kind: "http" } });
  const view = await driveToEnd(runId);
  return { view, events: await runStub(runId).events({ limit: 1_000 }) };
}

const sessionsOf = (events: readonly RunEvent[]) =>
  events
    .filter((e) => e.type === "harness.session.started" && (e.payload as { role: string }).role === "planner")
    .map((e) => (e.payload as { sessionId: string }).sessionId);

describe("the run object: a failed outer-loop cycle re-plans", () => {
  it("cycle 1 fails at a step, cycle 2 is planned with the redacted failure and completes; the index says completed", async () => {
    const t = await setUp();
    const { view, events } = await runToEnd("run_do_replan", t.definition.id);
    expect(view.status).toBe("completed");
    expect(sessionsOf(events)).toEqual(["planner:c1", "planner:c2"]);
    const cycles = events.filter((e) => e.type === "OuterLoopCycleCompleted").map((e) => e.payload);
    expect(cycles).toEqual([
      expect.objectContaining({
        cycleNumber: 1,
        status: "failed",
        decision: "replan",
        failure: expect.objectContaining({ causeCode: "step_failed", stepId: "lookup" }),
      }),
      expect.objectContaining({ cycleNumber: 2, status: "completed", decision: "accept" }),
    ]);
    const c2 = t.planner.doGenerateCalls.filter((call) => planTaskOf(call).outerLoopContext?.cycleNumber === 2);
    expect(c2.length).toBeGreaterThan(0);
    expect(planTaskOf(c2[0] as (typeof c2)[0]).outerLoopContext?.priorCycles).toEqual([
      expect.objectContaining({
        cycleNumber: 1,
        status: "failed",
        failure: expect.objectContaining({
          causeCode: "step_failed",
          stepId: "lookup",
          message: expect.stringContaining("CRM refused token [redacted:CRM_TOKEN]"),
        }),
      }),
    ]);
    for (const call of t.planner.doGenerateCalls) expect(promptText(call)).not.toContain(CRM_TOKEN);
    expect(JSON.stringify(events)).not.toContain(CRM_TOKEN);
    const row = await env.DB.prepare("SELECT status, cause_code FROM runs WHERE run_id = 'run_do_replan'").first();
    expect(row).toMatchObject({ status: "completed", cause_code: null });
  });

  it("a crash right after the failed cycle is journaled resumes at cycle 2: the tool and cycle 1's planner are not called again", async () => {
    const t = await setUp({ crashAfterFailedCycle: true });
    const { view, events } = await runToEnd("run_do_replan_crash", t.definition.id);
    expect(t.crashed()).toBe(true);
    expect(view.status).toBe("completed");
    expect(crmCalls).toEqual(["T-9"]);
    expect(sessionsOf(events)).toEqual(["planner:c1", "planner:c2"]);
    // Two planner calls per cycle (bash, then submit), as without the crash; supervise once per cycle.
    expect(t.planner.doGenerateCalls).toHaveLength(4);
    expect(t.supervised.map((c) => c.cycleNumber)).toEqual([1, 2]);
    expect(events.filter((e) => e.type === "OuterLoopCycleCompleted")).toHaveLength(2);
  });

  it("a quota reached by cycle 1's failure ends the run with the quota's cause; the failure is not re-planned", async () => {
    // Measure the log up to the step's failure, then run again with exactly that many bytes allowed:
    // the StepFailed append goes over, so the quota ends the run right as the cycle fails.
    const measured = await runToEnd("run_do_quota_1", (await setUp()).definition.id);
    const failedAt = measured.events.findIndex((e) => e.type === "StepFailed");
    const before = measured.events.slice(0, failedAt).reduce((n, e) => n + JSON.stringify(e.payload ?? null).length, 0);
    const t = await setUp({ eventLogBytes: before });
    const { view, events } = await runToEnd("run_do_quota_2", t.definition.id);
    expect(view.status).toBe("failed");
    expect(events.at(-2)?.type).toBe("StepFailed");
    expect(events.at(-1)?.payload).toMatchObject({ causeCode: "event_log_too_large" });
    expect(sessionsOf(events)).toEqual(["planner:c1"]);
    expect(events.some((e) => e.type === "OuterLoopCycleCompleted")).toBe(false);
    expect(t.supervised).toEqual([]);
  });
});
