/**
 * The crash matrix of restarts and forks: the new run's object is aborted after each of its
 * appends in turn (every event boundary of its drive), and its alarm takes it up again. Each time it
 * must end as an uncrashed run does: every step succeeded once, the reused steps name the same
 * source events, and no event is duplicated (dense seqs). A crash as the start is written is
 * answered 503 `run_start_unconfirmed`; the same request again (its Idempotency-Key) starts one run.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import type { RunView } from "../../src/ports/run-handle.ts";
import { isEndedStatus } from "../../src/ports/run-status.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { overrideWiring, type WiringOverrides } from "../../src/wiring.ts";
import { call } from "../api/support/api-call.ts";
import { runStub } from "../support/drive.ts";
import { countingOfflineModels, threeStepLwir } from "../support/three-step-lwir.ts";

const seed: RegisteredWorkflow = { definition: defineWorkflow(summarizeTicketDefinition), tools: {} };
const INPUT = { ticketId: "T-9", transcript: "My invoice shows the wrong VAT number." };
const base = () => ({ models: countingOfflineModels().resolver, workflows: catalogOf([seed]) }) satisfies WiringOverrides;

beforeEach(() => overrideWiring(base()));
afterEach(() => overrideWiring({}));

/** The run once ended, taken up with fresh stubs across aborts (the alarm set before a crash resumes it). */
async function ended(runId: string): Promise<RunView> {
  for (let i = 0; i < 60; i++) {
    try {
      const view = await runStub(runId, "dev").waitForEnd(2_000);
      if (isEndedStatus(view.status)) return view;
    } catch (error) {
      if (!/reset|abort|broken/i.test(String(error))) throw error;
    }
  }
  throw new Error(`run ${runId} did not end`);
}

async function events(runId: string): Promise<RunEvent[]> {
  return runStub(runId, "dev").events({ limit: 1_000 });
}

/** What must hold of a restart or fork's log whatever crashed: each step once, reuses named, nothing twice. */
function checkLog(log: readonly RunEvent[], sourceRunId: string, reusedSteps: readonly string[]): void {
  expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  const succeeded = log.filter((e) => e.type === "StepSucceeded");
  const paths = succeeded.map((e) => e.payload.stepPath);
  expect(new Set(paths).size).toBe(paths.length);
  expect(paths.sort()).toEqual(["c1/classify", "c1/extract", "c1/report"]);
  const reused = succeeded.filter((e) => e.payload.reused).map((e) => e.payload.stepPath.slice(3));
  expect(reused.sort()).toEqual([...reusedSteps].sort());
  for (const e of succeeded) if (e.payload.reused) expect(e.payload.reused.runId).toBe(sourceRunId);
  expect(log.filter((e) => e.type === "RunCompleted")).toHaveLength(1);
}

async function source(): Promise<string> {
  const r = await call("POST", "/v1/lwir/runs?wait=20", { body: { lwir: await threeStepLwir(seed), input: INPUT } });
  expect(r.status, r.text).toBe(200);
  return (r.json.run as { runId: string }).runId;
}

const OPERATIONS = [
  {
    name: "fork",
    path: "fork",
    body: { steps: { report: { with: { prompt: "Rate: {{ steps.extract.output.text }}" } } } },
    reused: ["extract", "classify"],
  },
  { name: "restart", path: "restart", body: { fromStep: "classify" }, reused: ["extract"] },
] as const;

describe.each(OPERATIONS)("a crash during a $name", (op) => {
  it("at every event boundary of the new run loses nothing and duplicates nothing", async () => {
    const sourceRunId = await source();
    // An uncrashed run first: how many appends its object makes.
    let appends = 0;
    overrideWiring({
      ...base(),
      afterAppend: () => {
        appends += 1;
      },
    });
    const clean = await call("POST", `/v1/runs/${sourceRunId}/${op.path}`, { body: op.body });
    expect(clean.status, clean.text).toBe(202);
    const cleanId = (clean.json.run as { runId: string }).runId;
    expect((await ended(cleanId)).status).toBe("completed");
    checkLog(await events(cleanId), sourceRunId, op.reused);
    const cleanOutput = (await runStub(cleanId, "dev").status()).output;
    expect(appends).toBeGreaterThan(2);
    // Then a crash after append k of the new run, for every k past its start.
    for (let k = 2; k <= appends; k++) {
      let seen = 0;
      let crashed = false;
      overrideWiring({
        ...base(),
        afterAppend: (_events, ctx) => {
          seen += 1;
          if (!crashed && seen === k) {
            crashed = true;
            ctx.abort();
          }
        },
      });
      const r = await call("POST", `/v1/runs/${sourceRunId}/${op.path}`, {
        body: op.body,
        headers: { "idempotency-key": `${op.name}-${k}` },
      });
      expect([200, 202], r.text).toContain(r.status);
      const runId = (r.json.run as { runId: string }).runId;
      const view = await ended(runId);
      expect(view.status, `crash after append ${k}`).toBe("completed");
      expect(view.output, `crash after append ${k}`).toEqual(cleanOutput);
      checkLog(await events(runId), sourceRunId, op.reused);
    }
  }, 120_000);

  it("as its start is written: 503 run_start_unconfirmed, and the same request again starts one run", async () => {
    const sourceRunId = await source();
    let crashed = false;
    overrideWiring({
      ...base(),
      afterAppend: (events, ctx) => {
        if (!crashed && events[0]?.type === "RunRequested" && events[0].payload.memo) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    const headers = { "idempotency-key": `${op.name}-start-crash` };
    const first = await call("POST", `/v1/runs/${sourceRunId}/${op.path}`, { body: op.body, headers });
    expect(crashed).toBe(true);
    expect([202, 503], first.text).toContain(first.status);
    const again = await call("POST", `/v1/runs/${sourceRunId}/${op.path}`, { body: op.body, headers });
    expect(again.status, again.text).toBe(202);
    const runId = (again.json.run as { runId: string }).runId;
    expect((await ended(runId)).status).toBe("completed");
    checkLog(await events(runId), sourceRunId, op.reused);
    const links = (await call("GET", `/v1/runs/${sourceRunId}`)).json.run as { forks?: string[]; restarts?: string[] };
    expect(links[op.name === "fork" ? "forks" : "restarts"]).toEqual([runId]);
  }, 60_000);
});
