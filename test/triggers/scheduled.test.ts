import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { dailyDigest, dailyDigestDefinition } from "../../src/examples/ops-daily-digest.ts";
import { summarizeTicket, summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { handleScheduled } from "../../src/triggers/handlers.ts";
import { CRON_RETRY_DELAYS_MS, CRON_START_ATTEMPTS, scheduledRunId, startScheduledRuns } from "../../src/triggers/scheduled-starts.ts";
import { overrideWiring, wire } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";

const WEEKDAYS_8AM = "0 8 * * MON-FRI";
/** A second workflow on another cron, owned by a named tenant. */
const hourlyTriage = defineWorkflow({
  ...summarizeTicketDefinition,
  id: "support.hourly-triage",
  schedule: { cron: "0 * * * *", tenant: "acme", input: { ticketId: "T-hourly", transcript: "The export button does nothing." } },
});

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([
      { definition: dailyDigest, tools: {} },
      { definition: hourlyTriage, tools: {} },
      { definition: summarizeTicket, tools: {} },
    ]),
  }),
);
afterEach(() => overrideWiring({}));

async function requestedEvents(runId: string, tenant = "default") {
  return runStub(runId, tenant).events({ types: ["RunRequested"] });
}

describe("handleScheduled: cron ticks start runs", () => {
  it("a tick on a workflow's cron starts one run with the schedule's input, and it completes (offline model)", async () => {
    const scheduledTime = Date.UTC(2026, 11, 1, 8, 0);
    const controller = createScheduledController({ cron: WEEKDAYS_8AM, scheduledTime });
    await handleScheduled(controller, env, createExecutionContext());
    const runId = scheduledRunId(dailyDigest.id, WEEKDAYS_8AM, scheduledTime);
    const view = await driveToEnd(runId);
    expect(view).toMatchObject({ status: "completed", workflowId: "ops.daily-digest", tenant: "default" });
    expect(view.output).toMatchObject({ headline: expect.any(String), items: expect.any(Array) });
    const [requested] = await requestedEvents(runId);
    expect(requested?.payload).toMatchObject({
      input: { team: "support", focus: "tickets opened overnight" },
      trigger: { kind: "cron", id: "0 8 * * MON-FRI@2026-12-01T08:00:00.000Z" },
    });
    const indexed = await wire(env).runs.get("default", runId);
    expect(indexed).toMatchObject({ workflowId: "ops.daily-digest", triggerKind: "cron", status: "completed" });
  });

  it("the same tick delivered twice (a retry, two isolates) starts no second run", async () => {
    const scheduledTime = Date.UTC(2026, 11, 2, 8, 0);
    const first = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, env);
    const again = await startScheduledRuns({ cron: " 0 8 * * mon-fri", scheduledTime }, env);
    expect(first.map((s) => s.outcome)).toEqual(["started"]);
    expect(again).toEqual([{ ...first[0], outcome: "already_started" }]);
    expect(await requestedEvents(first[0]?.runId as string)).toHaveLength(1);
    const listed = await wire(env).runs.list({ tenant: "default", workflowId: "ops.daily-digest", limit: 50 });
    expect(listed.filter((r) => r.runId === first[0]?.runId)).toHaveLength(1);
    // The next tick is another run.
    const next = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime: scheduledTime + 86_400_000 }, env);
    expect(next[0]?.runId).not.toBe(first[0]?.runId);
    expect(next[0]?.outcome).toBe("started");
  });

  it("a tick handed on as a Date (Fetcher.scheduled) is the same tick as its number", async () => {
    const scheduledTime = Date.UTC(2026, 11, 14, 8, 0);
    const first = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, env);
    const asDate = { cron: WEEKDAYS_8AM, scheduledTime: new Date(scheduledTime) as unknown as number };
    expect(first.map((s) => s.outcome)).toEqual(["started"]);
    expect(await startScheduledRuns(asDate, env)).toEqual([{ ...first[0], outcome: "already_started" }]);
  });

  it("a cron no workflow is scheduled on starts nothing", async () => {
    const before = await wire(env).runs.list({ tenant: "default", limit: 200 });
    await handleScheduled(
      createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.UTC(2026, 11, 3) }),
      env,
      createExecutionContext(),
    );
    expect(await startScheduledRuns({ cron: "*/5 * * * *", scheduledTime: Date.UTC(2026, 11, 3) }, env)).toEqual([]);
    expect(await wire(env).runs.list({ tenant: "default", limit: 200 })).toHaveLength(before.length);
  });

  it("a schedule's tenant owns its runs; each workflow is matched by its own cron", async () => {
    const scheduledTime = Date.UTC(2026, 11, 4, 9, 0);
    const starts = await startScheduledRuns({ cron: "0 * * * *", scheduledTime }, env);
    expect(starts).toEqual([
      {
        workflowId: "support.hourly-triage",
        runId: scheduledRunId("support.hourly-triage", "0 * * * *", scheduledTime),
        tenant: "acme",
        outcome: "started",
      },
    ]);
    expect(await wire(env).runs.get("default", starts[0]?.runId as string)).toBeNull();
    expect(await wire(env).runs.get("acme", starts[0]?.runId as string)).toMatchObject({ triggerKind: "cron" });
  });

  it("LITTLE_TRIGGER_TENANT owns runs of schedules that name no tenant", async () => {
    const scheduledTime = Date.UTC(2026, 11, 5, 8, 0);
    const starts = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, { ...env, LITTLE_TRIGGER_TENANT: "ops" } as Env);
    expect(starts[0]).toMatchObject({ tenant: "ops", outcome: "started" });
  });

  it("a LITTLE_TRIGGER_TENANT that is no tenant name fails the start with trigger_tenant_invalid and creates nothing", async () => {
    const scheduledTime = Date.UTC(2026, 11, 5, 9, 0);
    const misconfigured = { ...env, LITTLE_TRIGGER_TENANT: "Ops Team" } as Env;
    const waits: number[] = [];
    const starts = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, misconfigured, {
      sleep: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual(CRON_RETRY_DELAYS_MS);
    expect(starts).toEqual([
      expect.objectContaining({
        outcome: "failed",
        code: "trigger_tenant_invalid",
        tenant: "Ops Team",
        message: expect.stringContaining("LITTLE_TRIGGER_TENANT"),
      }),
    ]);
    expect(await wire(env).runs.get("default", scheduledRunId(dailyDigest.id, WEEKDAYS_8AM, scheduledTime))).toBeNull();
    // A schedule that names its own tenant does not read the var.
    const hourly = await startScheduledRuns({ cron: "0 * * * *", scheduledTime }, misconfigured);
    expect(hourly).toEqual([expect.objectContaining({ tenant: "acme", outcome: "started" })]);
  });

  it("a deployed Worker holding well-known example values starts nothing on a tick (insecure_configuration)", async () => {
    const deployed = { ...env, LITTLE_ENV: undefined } as unknown as Env;
    const scheduledTime = Date.UTC(2026, 11, 7, 8, 0);
    const starts = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, deployed, { sleep: async () => undefined });
    expect(starts).toEqual([expect.objectContaining({ outcome: "failed", code: "insecure_configuration", attempts: CRON_START_ATTEMPTS })]);
    expect(await wire(env).runs.get("default", scheduledRunId(dailyDigest.id, WEEKDAYS_8AM, scheduledTime))).toBeNull();
  });

  it("a transient failure (D1 errors) is retried in the tick after a short wait, and the run starts once", async () => {
    let failuresLeft = 1;
    const flaky = new Proxy(env.DB, {
      get: (target, key) => {
        const value = Reflect.get(target, key);
        if (key !== "prepare" && key !== "batch" && key !== "exec") return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => {
          if (failuresLeft > 0) {
            failuresLeft--;
            throw new Error("D1_ERROR: Network connection lost.");
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const scheduledTime = Date.UTC(2026, 11, 8, 8, 0);
    const waits: number[] = [];
    const starts = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, { ...env, DB: flaky } as Env, {
      sleep: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual([CRON_RETRY_DELAYS_MS[0]]);
    expect(starts).toEqual([expect.objectContaining({ outcome: "started", tenant: "default" })]);
    expect(await requestedEvents(starts[0]?.runId as string)).toHaveLength(1);
  });

  it("a start still failing after its attempts is reported with them; a refusal of the input is not retried", async () => {
    const down = new Proxy(env.DB, {
      get: (target, key) =>
        key === "prepare" || key === "batch" || key === "exec"
          ? () => {
              throw new Error("D1_ERROR: Network connection lost.");
            }
          : Reflect.get(target, key),
    });
    const scheduledTime = Date.UTC(2026, 11, 9, 8, 0);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const starts = await startScheduledRuns({ cron: WEEKDAYS_8AM, scheduledTime }, { ...env, DB: down } as Env, { sleep });
    expect(starts).toEqual([
      expect.objectContaining({ outcome: "failed", attempts: CRON_START_ATTEMPTS, message: expect.stringContaining("D1_ERROR") }),
    ]);
    expect(waits).toEqual(CRON_RETRY_DELAYS_MS);
    expect(await wire(env).runs.get("default", scheduledRunId(dailyDigest.id, WEEKDAYS_8AM, scheduledTime))).toBeNull();
    // input_schema_error: the same input fails the same way on every try.
    const strict = defineWorkflow({
      ...summarizeTicketDefinition,
      id: "support.strict-retry",
      input: { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"] },
      schedule: "45 6 * * *",
    });
    overrideWiring({
      models: new EnvModelResolver({ mode: "offline", secrets: {} }),
      workflows: catalogOf([{ definition: strict, tools: {} }]),
    });
    waits.length = 0;
    const refused = await startScheduledRuns({ cron: "45 6 * * *", scheduledTime }, env, { sleep });
    expect(refused).toEqual([expect.objectContaining({ outcome: "failed", code: "input_schema_error", attempts: 1 })]);
    expect(waits).toEqual([]);
  });

  it("a start that fails is reported and fails the tick, without stopping the tick's other starts", async () => {
    // A JSON Schema input is checked at the start, not by defineWorkflow: this one refuses {}.
    const strict = defineWorkflow({
      ...summarizeTicketDefinition,
      id: "support.strict",
      input: { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"] },
      schedule: "30 6 * * *",
    });
    const alsoDue = defineWorkflow({
      ...dailyDigestDefinition,
      id: "ops.also-due",
      schedule: { cron: "30 6 * * *", input: dailyDigestDefinition.schedule.input },
    });
    overrideWiring({
      models: new EnvModelResolver({ mode: "offline", secrets: {} }),
      workflows: catalogOf([
        { definition: strict, tools: {} },
        { definition: alsoDue, tools: {} },
      ]),
    });
    const tick = createScheduledController({ cron: "30 6 * * *", scheduledTime: Date.UTC(2026, 11, 6, 6, 30) });
    await expect(handleScheduled(tick, env, createExecutionContext())).rejects.toThrow(
      /1 of 2 scheduled runs did not start \(support\.strict: input_schema_error\)/,
    );
    const runId = scheduledRunId("ops.also-due", "30 6 * * *", Date.UTC(2026, 11, 6, 6, 30));
    expect(await wire(env).runs.get("default", runId)).toMatchObject({ workflowId: "ops.also-due" });
    expect(await wire(env).runs.get("default", scheduledRunId("support.strict", "30 6 * * *", Date.UTC(2026, 11, 6, 6, 30)))).toBeNull();
  });
});
