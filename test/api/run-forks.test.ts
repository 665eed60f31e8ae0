/**
 * Restart from a step, forks and compare over the real path: HTTP into the Worker, real D1, real
 * run objects driven by their alarms. Model calls are counted at the model (countingOfflineModels).
 */
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { countingOfflineModels, threeStepLwir } from "../support/three-step-lwir.ts";
import { call, runEvents } from "./support/api-call.ts";

const seed: RegisteredWorkflow = { definition: defineWorkflow(summarizeTicketDefinition), tools: {} };
const INPUT = { ticketId: "T-7", transcript: "I was charged twice for my plan." };
let counter: ReturnType<typeof countingOfflineModels>;
/** While true, the `check` tool fails (a step that fails for good: tool errors are not retried without a policy). */
let checkFails = false;
const checked: RegisteredWorkflow = {
  definition: defineWorkflow({
    ...summarizeTicketDefinition,
    id: "test.fork-check",
    tools: {
      check: tool({
        description: "Checks the facts",
        inputSchema: z.object({ facts: z.string() }),
        execute: async ({ facts }: { facts: string }) => {
          if (checkFails) throw new Error("the checker is down (test)");
          return { ok: facts.length > 0 };
        },
      }),
    },
  }),
  tools: {},
};

beforeEach(() => {
  checkFails = false;
  counter = countingOfflineModels();
  overrideWiring({ models: counter.resolver, workflows: catalogOf([seed, checked]) });
});
afterEach(() => overrideWiring({}));

type Plan = { steps: { stepId: string; action: string; reason?: string; sourceSeq?: number }[]; sideEffects: unknown[] };
type Run = { runId: string; status: string; forkOf?: { runId: string }; restartOf?: { runId: string; fromStep?: string } };

/** A completed run of the three-step plan. */
async function completedSource(input: unknown = INPUT): Promise<{ runId: string; lwir: Record<string, unknown> }> {
  const lwir = await threeStepLwir(seed);
  const r = await call("POST", "/v1/lwir/runs?wait=20", { body: { lwir, input } });
  expect(r.status, r.text).toBe(200);
  const runId = (r.json.run as Run).runId;
  expect((r.json.run as Run).status).toBe("completed");
  return { runId, lwir };
}

const actions = (plan: Plan) => Object.fromEntries(plan.steps.map((s) => [s.stepId, s.reason ? `${s.action}:${s.reason}` : s.action]));

/** The new run once it has ended, with the model calls made since `before` and its reused steps. */
async function finish(runId: string, before: number): Promise<{ calls: number; reused: Record<string, { runId: string; seq: number }> }> {
  const ended = await runStub(runId, "dev").waitForEnd(20_000);
  expect(ended.status).toBe("completed");
  const reused: Record<string, { runId: string; seq: number }> = {};
  for (const e of await runEvents(runId))
    if (e.type === "StepSucceeded" && e.payload.reused)
      reused[String(e.payload.stepPath).split("/")[1] as string] = e.payload.reused as never;
  return { calls: counter.calls() - before, reused };
}

describe("fork", () => {
  it("a changed prompt re-runs exactly that step (one model call) and reuses the other two, naming their source events", async () => {
    const source = await completedSource();
    const sourceEvents = await runEvents(source.runId);
    const before = counter.calls();
    const r = await call("POST", `/v1/runs/${source.runId}/fork`, {
      body: { steps: { report: { with: { prompt: "Rate it: {{ steps.extract.output.text }} / {{ steps.classify.output.text }}" } } } },
    });
    expect(r.status, r.text).toBe(202);
    const plan = r.json.plan as Plan;
    expect(actions(plan)).toEqual({ extract: "reuse", classify: "reuse", report: "rerun:changed" });
    expect(plan.sideEffects).toEqual([]);
    const fork = r.json.run as Run;
    expect(fork.forkOf).toEqual({ runId: source.runId });
    const { calls, reused } = await finish(fork.runId, before);
    expect(calls).toBe(1);
    expect(Object.keys(reused).sort()).toEqual(["classify", "extract"]);
    for (const [stepId, ref] of Object.entries(reused)) {
      expect(ref.runId).toBe(source.runId);
      const original = sourceEvents.find((e) => e.type === "StepSucceeded" && e.payload.stepPath === `c1/${stepId}`) as never as {
        seq: number;
      };
      expect(ref.seq).toBe(original.seq);
    }
    const original = (await call("GET", `/v1/runs/${source.runId}`)).json.run as Run & { forks?: string[] };
    expect(original.forks).toEqual([fork.runId]);
  });

  it("another input re-runs what reads it; ?dryRun=true plans the same and starts nothing", async () => {
    const source = await completedSource();
    const input = { ...INPUT, transcript: "The app crashes when I open the invoice page." };
    const dry = await call("POST", `/v1/runs/${source.runId}/fork?dryRun=true`, { body: { input } });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.run).toBeUndefined();
    expect(actions(dry.json.plan as Plan)).toEqual({ extract: "rerun:changed", classify: "reuse", report: "rerun:reads_rerun" });
    expect(((await call("GET", `/v1/runs/${source.runId}`)).json.run as { forks?: string[] }).forks).toBeUndefined();
    const before = counter.calls();
    const r = await call("POST", `/v1/runs/${source.runId}/fork`, { body: { input } });
    expect(r.status, r.text).toBe(202);
    const { calls, reused } = await finish((r.json.run as Run).runId, before);
    expect(reused.classify?.runId).toBe(source.runId);
    expect(reused.extract).toBeUndefined();
    // report runs again unless extract answered exactly as before: every call is a step that was not reused.
    expect(calls).toBe(3 - Object.keys(reused).length);
  });

  it("bad edits are 422 with findings and store nothing", async () => {
    const source = await completedSource();
    const unknownStep = await call("POST", `/v1/runs/${source.runId}/fork`, { body: { steps: { nope: { with: { prompt: "x" } } } } });
    expect(unknownStep.status).toBe(422);
    expect(unknownStep.json.error?.code).toBe("fork_edit_invalid");
    expect(unknownStep.json.error?.message).toContain("extract, classify, report");
    const unknownSlot = await call("POST", `/v1/runs/${source.runId}/fork`, { body: { models: { "no-such-slot": "openai:gpt-5" } } });
    expect(unknownSlot.status).toBe(422);
    expect(unknownSlot.json.error?.findings?.map((f) => f.path)).toContain("$.models.no-such-slot");
    const badModel = await call("POST", `/v1/runs/${source.runId}/fork`, { body: { models: { "gpt-4o-mini": "nonsense" } } });
    expect(badModel.status).toBe(422);
    const badLwir = await call("POST", `/v1/runs/${source.runId}/fork`, { body: { steps: { report: { with: { model: "gpt-6" } } } } });
    expect(badLwir.status).toBe(422);
    expect(badLwir.json.error?.code).toBe("lwir_invalid");
    expect(((await call("GET", `/v1/runs/${source.runId}`)).json.run as { forks?: string[] }).forks).toBeUndefined();
  });

  it("a model change for a slot re-runs the steps on that slot", async () => {
    const source = await completedSource();
    const r = await call("POST", `/v1/runs/${source.runId}/fork?dryRun=true`, {
      body: { models: { "gpt-4o-mini": "anthropic:claude-sonnet-4-5" } },
    });
    expect(r.status, r.text).toBe(200);
    expect(actions(r.json.plan as Plan)).toEqual({ extract: "rerun:changed", classify: "rerun:changed", report: "rerun:reads_rerun" });
  });
});

describe("restart", () => {
  it("from a step: the steps before it are reused, it and everything downstream run afresh, linked both ways", async () => {
    const source = await completedSource();
    const before = counter.calls();
    const r = await call("POST", `/v1/runs/${source.runId}/restart`, { body: { fromStep: "classify" } });
    expect(r.status, r.text).toBe(202);
    expect(actions(r.json.plan as Plan)).toEqual({ extract: "reuse", classify: "rerun:restarted", report: "rerun:restarted" });
    const restart = r.json.run as Run;
    expect(restart.restartOf).toEqual({ runId: source.runId, fromStep: "classify" });
    const { calls, reused } = await finish(restart.runId, before);
    expect(calls).toBe(2);
    expect(Object.keys(reused)).toEqual(["extract"]);
    const original = (await call("GET", `/v1/runs/${source.runId}`)).json.run as { restarts?: string[]; versionId?: string };
    expect(original.restarts).toEqual([restart.runId]);
    const again = (await call("GET", `/v1/runs/${restart.runId}`)).json.run as { versionId?: string };
    expect(again.versionId).toBe(original.versionId);
  });

  it("is idempotent with an Idempotency-Key, and refuses what it cannot restart with stable codes", async () => {
    const source = await completedSource();
    const headers = { "idempotency-key": "retry-1" };
    const first = await call("POST", `/v1/runs/${source.runId}/restart`, { body: { fromStep: "report" }, headers });
    const second = await call("POST", `/v1/runs/${source.runId}/restart`, { body: { fromStep: "report" }, headers });
    expect(first.status, first.text).toBe(202);
    expect((second.json.run as Run).runId).toBe((first.json.run as Run).runId);
    expect(((await call("GET", `/v1/runs/${source.runId}`)).json.run as { restarts?: string[] }).restarts).toHaveLength(1);

    const nothingFailed = await call("POST", `/v1/runs/${source.runId}/restart`, {});
    expect(nothingFailed.status).toBe(422);
    expect(nothingFailed.json.error?.code).toBe("restart_no_failed_step");
    const unknown = await call("POST", `/v1/runs/${source.runId}/restart`, { body: { fromStep: "nope" } });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error?.code).toBe("restart_step_unknown");
    expect(unknown.json.error?.message).toContain("extract, classify, report");
    expect((await call("POST", "/v1/runs/run_nope/restart", {})).json.error?.code).toBe("run_not_found");
  });

  it("a run that has not ended is 409 run_active (restart and fork)", async () => {
    const lwir = await threeStepLwir(seed);
    const steps = [
      { id: "nap", uses: "wait.sleep", needs: [], with: { durationMs: 3_600_000 } },
      ...(lwir.steps as { needs: string[] }[]).map((s) => ({ ...s, needs: [...s.needs, "nap"] })),
    ];
    const r = await call("POST", "/v1/lwir/runs", { body: { lwir: { ...lwir, steps }, input: INPUT } });
    expect(r.status, r.text).toBe(202);
    const runId = (r.json.run as Run).runId;
    const restart = await call("POST", `/v1/runs/${runId}/restart`, { body: { fromStep: "report" } });
    expect(restart.status).toBe(409);
    expect(restart.json.error?.code).toBe("run_active");
    expect((await call("POST", `/v1/runs/${runId}/fork`, { body: {} })).json.error?.code).toBe("run_active");
    await call("POST", `/v1/runs/${runId}/cancel`, {});
  });
});

describe("restart of a failed run", () => {
  it("defaults to the first failed step: the steps before it are reused, it and what follows run again", async () => {
    const base = (await threeStepLwir(checked)) as { steps: Record<string, unknown>[] } & Record<string, unknown>;
    const [extract, classify, report] = base.steps as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
    const check = {
      id: "check",
      uses: "tool.call",
      needs: ["extract"],
      with: { tool: "check", input: { facts: "{{ steps.extract.output.text }}" } },
      output: { mode: "json" },
    };
    const lwir = {
      ...base,
      metadata: { name: checked.definition.id, version: "0.1.0" },
      permissions: { models: ["gpt-4o-mini"], tools: ["check"], secrets: [], network: [] },
      steps: [extract, classify, check, { ...report, needs: ["check", "classify"] }],
    };
    checkFails = true;
    const r = await call("POST", "/v1/lwir/runs?wait=20", { body: { lwir, input: INPUT } });
    const sourceId = (r.json.run as Run).runId;
    expect((r.json.run as Run).status, r.text).toBe("failed");
    checkFails = false;
    const before = counter.calls();
    const restart = await call("POST", `/v1/runs/${sourceId}/restart`, {});
    expect(restart.status, restart.text).toBe(202);
    expect((restart.json.run as Run).restartOf).toEqual({ runId: sourceId, fromStep: "check" });
    const plan = restart.json.plan as Plan & { sideEffects: { stepId: string; tool: string }[] };
    expect(actions(plan)).toEqual({ extract: "reuse", classify: "reuse", check: "rerun:restarted", report: "rerun:restarted" });
    expect(plan.sideEffects).toEqual([{ stepId: "check", tool: "check" }]);
    const { reused } = await finish((restart.json.run as Run).runId, before);
    // Counted in the new run's own log: the source's aborted sibling may still be answering at the shared model.
    const called = (await runEvents((restart.json.run as Run).runId)).filter((e) => e.type === "harness.model.called");
    expect(called.map((e) => e.payload.sessionId)).toEqual(["worker:c1/report:a1"]);
    expect(Object.keys(reused).sort()).toEqual(["classify", "extract"]);
  });
});

describe("over RPC (service binding)", () => {
  it("restartRun, forkRun and compareRuns answer as the HTTP routes do", async () => {
    const source = await completedSource();
    const rpc = exports.LittleWorkflowEntrypoint({ props: { tenant: "dev" } });
    const forked = await rpc.forkRun(
      source.runId,
      { steps: { report: { with: { prompt: "In short: {{ steps.extract.output.text }}" } } } },
      { wait: 20 },
    );
    expect(forked.run?.status).toBe("completed");
    expect(forked.plan.steps.map((s) => s.action)).toEqual(["reuse", "reuse", "rerun"]);
    const dry = await rpc.forkRun(source.runId, { input: { ...INPUT, ticketId: "T-8" } }, { dryRun: true });
    expect(dry.run).toBeUndefined();
    const restarted = await rpc.restartRun(source.runId, { fromStep: "report", wait: 20 });
    expect(restarted.run?.status).toBe("completed");
    const compared = await rpc.compareRuns(source.runId, forked.run?.runId as string);
    expect(compared.steps.map((s) => [s.stepId, s.b.reused?.runId ?? null])).toEqual([
      ["extract", source.runId],
      ["classify", source.runId],
      ["report", null],
    ]);
    const refused = await rpc.restartRun(source.runId, { fromStep: "nope" }).then(
      () => null,
      (error: unknown) => error as { code: string; status: number },
    );
    expect(refused).toMatchObject({ code: "restart_step_unknown", status: 422 });
  });
});

describe("compare", () => {
  it("shows each step side by side: reused or ran, outputs with a diff, tokens", async () => {
    const source = await completedSource();
    const r = await call("POST", `/v1/runs/${source.runId}/fork`, {
      body: { steps: { report: { with: { prompt: "Only the severity, please. {{ steps.extract.output.text }}" } } } },
    });
    const forkId = (r.json.run as Run).runId;
    await finish(forkId, counter.calls());
    const c = await call("GET", `/v1/runs/${source.runId}/compare/${forkId}`);
    expect(c.status, c.text).toBe(200);
    const steps = c.json.steps as {
      stepId: string;
      a: { status: string; reused?: unknown; usage: { totalTokens: number } };
      b: { status: string; reused?: { runId: string }; usage: { totalTokens: number } };
      changed: boolean;
    }[];
    expect(steps.map((s) => s.stepId)).toEqual(["extract", "classify", "report"]);
    const byId = Object.fromEntries(steps.map((s) => [s.stepId, s]));
    expect(byId.extract?.b.reused?.runId).toBe(source.runId);
    expect(byId.extract?.changed).toBe(false);
    expect(byId.extract?.b.usage.totalTokens).toBe(0);
    expect(byId.report?.b.reused).toBeUndefined();
    expect(byId.report?.b.status).toBe("succeeded");
    expect(byId.report?.a.usage.totalTokens).toBeGreaterThan(0);
    expect((c.json.b as { forkOf?: string }).forkOf).toBe(source.runId);
    expect((await call("GET", `/v1/runs/${source.runId}/compare/run_nope`)).status).toBe(404);
  });
});
