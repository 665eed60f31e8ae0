import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicket, summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { digestText } from "../../src/json/digest.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, rawRunStub, runStub } from "../support/drive.ts";
import { resolverFor, scriptedPlanner, scriptedWorker, seedLwirFor } from "../support/scripted-models.ts";

const INPUT = { ticketId: "T-1", transcript: "Customer cannot log in since Monday; they lose sales every hour." };
const SEED_COMPILE_STAGES = [
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
];

afterEach(() => overrideWiring({}));

async function startRun(runId: string, input: unknown = INPUT, workflowId = "support.summarize-ticket") {
  const answer = await runStub(runId).start({ runId, workflowId, input, trigger: { kind: "http" } });
  if (answer.outcome === "conflict" || answer.outcome === "deleted") throw new Error(`run ${runId}: ${answer.outcome}`);
  return { ...answer.view, created: answer.outcome === "created" };
}

async function eventsOf(runId: string): Promise<RunEvent[]> {
  return runStub(runId).events({ limit: 10_000 });
}

/** Events without their timestamps and run id, for comparing two runs of the same thing. */
function masked(events: readonly RunEvent[]) {
  return events.map((e) => ({
    seq: e.seq,
    type: e.type,
    payload: JSON.parse(JSON.stringify(e.payload).replace(/run_[A-Za-z0-9_]+:/g, "<run>:")),
  }));
}

async function goldenRun(runId: string) {
  const planner = scriptedPlanner();
  const worker = scriptedWorker();
  overrideWiring({ models: resolverFor(planner, worker) });
  await startRun(runId);
  const view = await driveToEnd(runId);
  return { view, planner, worker, events: await eventsOf(runId) };
}

describe("a run in its Durable Object: the seed example with a scripted planner", () => {
  it("logs the seed's compile stages, registers a wfver_ version in D1 and completes with a valid output", async () => {
    const { view, planner, worker, events } = await goldenRun("run_seed_golden");
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ summary: "The customer cannot log in since Monday.", severity: "high" });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("RunRequested");
    expect(types.slice(1, 1 + SEED_COMPILE_STAGES.length)).toEqual(SEED_COMPILE_STAGES);
    expect(types.slice(-1)).toEqual(["RunCompleted"]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(planner.doGenerateCalls).toHaveLength(2);
    expect(worker.doGenerateCalls).toHaveLength(1);

    const started = events.find((e) => e.type === "harness.session.started");
    expect(started?.payload).toMatchObject({ role: "planner", kind: "plan", manifestHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    const bash = events.find((e) => e.type === "harness.tool_call.succeeded");
    expect(bash?.payload).toMatchObject({
      tool: "bash",
      result: { exitCode: 0, stdout: "lwir.json\n" },
      scratch: { "drafts/lwir.json": "{}\n" },
    });

    const versionId = view.versionId as string;
    expect(versionId).toMatch(/^wfver_[0-9a-f]{16}$/);
    const row = await env.DB.prepare("SELECT id, hash, canonical_json FROM workflow_versions WHERE id = ?")
      .bind(versionId)
      .first<{ id: string; hash: string; canonical_json: string }>();
    expect(row?.hash).toBe(digestText(row?.canonical_json ?? ""));
    expect(`wfver_${row?.hash.slice(7, 23)}`).toBe(versionId);
    const lock = await env.DB.prepare("SELECT lock_json FROM compiler_locks WHERE version_id = ?")
      .bind(versionId)
      .first<{ lock_json: string }>();
    expect(JSON.parse(lock?.lock_json ?? "{}")).toMatchObject({
      workflowVersionId: versionId,
      lwirVersionId: versionId,
      modelSlots: [{ id: "gpt-4o-mini" }],
    });
    const index = await env.DB.prepare("SELECT status, version_id, trigger_kind FROM runs WHERE tenant = 'default' AND run_id = ?")
      .bind("run_seed_golden")
      .first();
    expect(index).toEqual({ status: "completed", version_id: versionId, trigger_kind: "http" });
  });

  it("a new run's start answers from the event it appended: pending, one event, its request as logged", async () => {
    const started = await startRun("run_start_answer");
    expect(started).toMatchObject({
      created: true,
      status: "pending",
      eventCount: 1,
      workflowId: "support.summarize-ticket",
      tenant: "default",
      input: INPUT,
    });
    const [requested] = await runStub("run_start_answer").events({ after: 0, limit: 1 });
    expect(requested).toMatchObject({ seq: 1, type: "RunRequested", payload: { input: INPUT } });
    expect(started.createdAt).toBe(requested?.at);
  });

  it("starting the same run id again makes no model call and returns the same version", async () => {
    const { view, planner, worker } = await goldenRun("run_seed_again");
    const again = await startRun("run_seed_again");
    expect(again.created).toBe(false);
    expect(again.status).toBe("completed");
    expect(again.versionId).toBe(view.versionId);
    expect(again.output).toEqual(view.output);
    expect(planner.doGenerateCalls).toHaveLength(2);
    expect(worker.doGenerateCalls).toHaveLength(1);
  });

  it("a repeat of a start decides its conflict in the object: another input, workflow or LWIR is `conflict`, the same is `existing`", async () => {
    await startRun("run_conflict");
    const stub = runStub("run_conflict");
    const request = { runId: "run_conflict", workflowId: "support.summarize-ticket", input: INPUT, trigger: { kind: "http" } } as const;
    // Key order does not matter: the inputs are compared by digest.
    const reordered = Object.fromEntries(Object.entries(INPUT).reverse());
    expect((await stub.start({ ...request, input: reordered })).outcome).toBe("existing");
    expect(await stub.start({ ...request, input: { ...INPUT, ticketId: "T-other" } })).toEqual({ outcome: "conflict" });
    expect(await stub.start({ ...request, workflowId: "other.workflow" })).toEqual({ outcome: "conflict" });
    expect(await stub.start({ ...request, lwir: { some: "lwir" } })).toEqual({ outcome: "conflict" });
    expect(await eventsOf("run_conflict")).toHaveLength(1);
  });

  it("a start with waitMs answers when the run has ended, in the same call", async () => {
    overrideWiring({ models: resolverFor(scriptedPlanner(), scriptedWorker()) });
    const answer = runStub("run_start_wait").start({
      runId: "run_start_wait",
      workflowId: "support.summarize-ticket",
      input: INPUT,
      trigger: { kind: "http" },
      waitMs: 60_000,
    });
    // The start is held in its object; the alarms it armed drive the run meanwhile.
    await vi.waitUntil(async () => (await eventsOf("run_start_wait")).length > 0);
    await driveToEnd("run_start_wait");
    expect(await answer).toMatchObject({ outcome: "created", view: { status: "completed" } });
  });

  it("replays a log cut anywhere inside the planner session with zero planner calls and the same version", async () => {
    const golden = await goldenRun("run_replay_source");
    const cut = golden.events.findIndex(
      (e) => e.type === "harness.tool_call.started" && (e.payload as { tool: string }).tool === "submit_lwir",
    );
    const prefix = golden.events.slice(0, cut);
    await runInDurableObject(rawRunStub("run_replay_copy"), async (_instance, state) => {
      state.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      state.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('runId', 'run_replay_copy')");
      state.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)",
      );
      for (const e of prefix)
        state.storage.sql.exec(
          "INSERT INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)",
          e.seq,
          e.type,
          e.at,
          JSON.stringify(e.payload),
        );
      await state.storage.setAlarm(Date.now());
    });
    const planner = scriptedPlanner();
    const worker = scriptedWorker();
    overrideWiring({ models: resolverFor(planner, worker) });
    const view = await driveToEnd("run_replay_copy");
    expect(view.status).toBe("completed");
    expect(view.versionId).toBe(golden.view.versionId);
    expect(planner.doGenerateCalls).toHaveLength(0);
    expect(worker.doGenerateCalls).toHaveLength(1);
    expect(masked(await eventsOf("run_replay_copy"))).toEqual(masked(golden.events));
  });
});

describe("crash matrix: abort the run object at every event boundary, resume from the alarm", () => {
  // One crash and resume per event boundary, the tenant's quota admissions among them (two per run): slow on a loaded machine.
  it("ends with the same log and output, and repeats no model call but the one in flight", { timeout: 120_000 }, async () => {
    const golden = await goldenRun("run_crash_golden");
    const goldenCalls = golden.planner.doGenerateCalls.length + golden.worker.doGenerateCalls.length;
    for (let k = 1; k < golden.events.length; k++) {
      const runId = `run_crash_${k}`;
      const planner = scriptedPlanner();
      const worker = scriptedWorker();
      let crashed = false;
      overrideWiring({
        models: resolverFor(planner, worker),
        afterAppend: (events, ctx) => {
          if (!crashed && events.some((e) => e.seq === k)) {
            crashed = true;
            ctx.abort();
          }
        },
      });
      await startRun(runId).catch(() => undefined);
      const view = await driveToEnd(runId);
      expect(crashed, `crash at ${k}`).toBe(true);
      expect(view.status, `crash at ${k}`).toBe("completed");
      expect(view.output, `crash at ${k}`).toEqual(golden.view.output);
      expect(masked(await eventsOf(runId)), `crash at ${k}`).toEqual(masked(golden.events));
      const calls = planner.doGenerateCalls.length + worker.doGenerateCalls.length;
      expect(calls, `model calls after a crash at ${k} (${golden.events[k - 1]?.type})`).toBe(goldenCalls);
    }
  });

  it("re-issues exactly the in-flight call when the object dies after the model answered but before its answer was logged", async () => {
    const golden = await goldenRun("run_inflight_golden");
    const responded = golden.events.filter((e) => e.type === "harness.model.responded").map((e) => e.seq);
    for (const seq of responded) {
      const runId = `run_inflight_${seq}`;
      const planner = scriptedPlanner();
      const worker = scriptedWorker();
      let crashed = false;
      let appended = 0;
      overrideWiring({
        models: resolverFor(planner, worker),
        afterAppend: (events) => {
          appended = Math.max(appended, ...events.map((e) => e.seq));
        },
        beforeAppend: (events, ctx) => {
          if (!crashed && appended === seq - 1 && events.some((e) => e.type === "harness.model.responded")) {
            crashed = true;
            ctx.abort();
          }
        },
      });
      await startRun(runId);
      const view = await driveToEnd(runId);
      expect(crashed, `crash before event ${seq}`).toBe(true);
      expect(masked(await eventsOf(runId)), `crash before event ${seq}`).toEqual(masked(golden.events));
      const calls = [...planner.doGenerateCalls, ...worker.doGenerateCalls].length;
      expect(calls, `crash before event ${seq}`).toBe(golden.planner.doGenerateCalls.length + golden.worker.doGenerateCalls.length + 1);
      expect(view.output).toEqual(golden.view.output);
    }
  });
});

describe("compile failures end the run with a named cause", () => {
  it("bad input fails with input_schema_error before any model call", async () => {
    const planner = scriptedPlanner();
    overrideWiring({ models: resolverFor(planner, scriptedWorker()) });
    await startRun("run_bad_input", { ticketId: 42 });
    const view = await driveToEnd("run_bad_input");
    expect(view.status).toBe("failed");
    expect(view.cause?.code).toBe("input_schema_error");
    expect(JSON.stringify(view.cause?.details)).toContain("$.ticketId");
    expect(planner.doGenerateCalls).toHaveLength(0);
  });

  it("two invalid drafts then a valid one: the findings are in the log and the version is registered", async () => {
    const wrongName = (o: Parameters<typeof seedLwirFor>[0]) => ({
      ...seedLwirFor(o),
      metadata: { name: "someone.else", version: "0.1.0" },
    });
    const noSteps = (o: Parameters<typeof seedLwirFor>[0]) => ({ ...seedLwirFor(o), steps: [] });
    const planner = scriptedPlanner([wrongName, noSteps, seedLwirFor]);
    overrideWiring({ models: resolverFor(planner, scriptedWorker()) });
    await startRun("run_repair");
    const view = await driveToEnd("run_repair");
    expect(view.status).toBe("completed");
    const submits = (await eventsOf("run_repair")).filter(
      (e) => e.type === "harness.tool_call.succeeded" && (e.payload as { tool: string }).tool === "submit_lwir",
    );
    const results = submits.map(
      (e) => (e.payload as { result: { accepted: boolean; findings: { code: string }[]; remainingRevisions: number } }).result,
    );
    expect(results.map((r) => r.accepted)).toEqual([false, false, true]);
    expect(results[0]?.findings.map((f) => f.code)).toContain("binding.workflow_name_mismatch");
    expect(results[1]?.findings.map((f) => f.code)).toContain("steps.empty");
    // maxRevisions 3: a first draft and three revisions; each answer counts the submissions left after it, accepted or not.
    expect(results.map((r) => r.remainingRevisions)).toEqual([3, 2, 1]);
    // Each tool result counts the 16 turns down: turn 1 was bash, then one submission per turn.
    expect(results.map((r) => (r as { turnsLeft?: number }).turnsLeft)).toEqual([14, 13, 12]);
    expect((await eventsOf("run_repair")).some((e) => e.type === "WorkflowVersionRegistered")).toBe(true);
  });

  it("a budget of invalid drafts fails with planner_validation_exhausted after the first draft and maxRevisions revisions", async () => {
    const planner = scriptedPlanner([(o) => ({ ...seedLwirFor(o), kind: "Pipeline" })]);
    overrideWiring({ models: resolverFor(planner, scriptedWorker()) });
    await startRun("run_exhausted");
    const view = await driveToEnd("run_exhausted");
    expect(view.status).toBe("failed");
    expect(view.cause?.code).toBe("planner_validation_exhausted");
    const submits = (await eventsOf("run_exhausted")).filter(
      (e) => e.type === "harness.tool_call.succeeded" && (e.payload as { tool: string }).tool === "submit_lwir",
    );
    expect(submits.map((e) => (e.payload as { result: { remainingRevisions: number } }).result.remainingRevisions)).toEqual([3, 2, 1, 0]);
    expect(planner.doGenerateCalls).toHaveLength(5);
    expect((await eventsOf("run_exhausted")).some((e) => e.type === "WorkflowVersionRegistered")).toBe(false);
  });

  it("a tool description changed between attempts fails the resumed run with capability_drift and a readable diff", async () => {
    const withTool = (description: string) =>
      defineWorkflow({
        ...summarizeTicketDefinition,
        tools: {
          "crm.lookup": tool({ description, inputSchema: z.object({ email: z.string() }), execute: async () => ({ plan: "pro" }) }),
        },
        models: [model(summarizeTicket.models[1]?.model as never, { description: "Fast model for short structured outputs." })],
      });
    const planner = scriptedPlanner();
    let crashed = false;
    overrideWiring({
      models: resolverFor(planner, scriptedWorker()),
      workflows: catalogOf([{ definition: withTool("Look a customer up in the CRM"), tools: {} }]),
      afterAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "harness.model.responded")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    await startRun("run_drift");
    await driveToEnd("run_drift", 1).catch(() => undefined);
    expect(crashed).toBe(true);
    overrideWiring({
      models: resolverFor(planner, scriptedWorker()),
      workflows: catalogOf([{ definition: withTool("Look a customer up in the CRM by email"), tools: {} }]),
    });
    const view = await driveToEnd("run_drift");
    expect(view.status).toBe("failed");
    expect(view.cause?.code).toBe("capability_drift");
    const fields = ((view.cause?.details as { diff?: { field: string }[] } | undefined)?.diff ?? []).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(["globalToolsHash", "workflowDefinitionHash"]));
    expect(planner.doGenerateCalls).toHaveLength(1);
  });
});
