import { startRun } from "../engine/runs/start-service.ts";
import { digestJson, digestPrefix } from "../json/digest.ts";
import { cronKey } from "../sdk/cron.ts";
import { TriggerTenantInvalidError } from "../sdk/errors/trigger-tenant-invalid-error.ts";
import type { Schedule } from "../sdk/schedule.ts";
import { assertSecureConfiguration } from "../wiring/insecure-configuration.ts";
import { wire } from "../wiring.ts";
import { decideFailure } from "./failure-policy.ts";
import { triggerTenant } from "./trigger-tenant.ts";

/** One tick's start of one workflow (also logged, one JSON line each). */
export type ScheduledStart = { readonly workflowId: string; readonly runId: string; readonly tenant: string } & (
  | { readonly outcome: "started" | "already_started" }
  | { readonly outcome: "failed"; readonly code: string; readonly message: string; readonly attempts: number }
);

/**
 * The run id of a tick: derived from the workflow, the cron expression and the tick's scheduled
 * time, so a tick delivered twice (a retry, two isolates) reaches the same run object, which
 * starts the run once.
 */
export function scheduledRunId(workflowId: string, cron: string, scheduledTime: number): string {
  return `run_cron_${digestPrefix(digestJson({ workflowId, cron: cronKey(cron), scheduledTime }), 24)}`;
}

/** How often one tick tries one start: Cloudflare does not call a failed cron handler again. */
export const CRON_START_ATTEMPTS = 3;
/** The waits between those attempts: short, the tick's whole wall time stays well under a minute. */
export const CRON_RETRY_DELAYS_MS = [1_000, 4_000] as const;

/** What a tick's starts may be given: tests pass a `sleep` that records the waits and returns at once. */
export type ScheduledStartOptions = { readonly sleep?: (ms: number) => Promise<void> };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts a run of every registered workflow with a schedule on this tick's cron expression, through
 * the same start as the HTTP trigger (input schema, approvals, quotas, the run index). Each start
 * stands alone: one that fails is reported and the others go on. A start failing in a way the
 * queue's failure policy would retry (D1 or Durable Object errors, quotas, configuration) is tried
 * again up to {@link CRON_START_ATTEMPTS} times; the run id is the same each time, so it cannot start twice.
 */
export async function startScheduledRuns(
  tick: Pick<ScheduledController, "cron" | "scheduledTime">,
  env: Env,
  options: ScheduledStartOptions = {},
): Promise<ScheduledStart[]> {
  const services = wire(env);
  const key = cronKey(tick.cron);
  const due: { workflowId: string; schedule: Schedule }[] = [];
  for (const workflowId of services.workflows.ids()) {
    const schedule = services.workflows.get(workflowId)?.definition.schedule?.find((s) => cronKey(s.cron) === key);
    if (schedule) due.push({ workflowId, schedule });
  }
  if (due.length === 0) console.warn(JSON.stringify({ kind: "little.cron-tick", cron: tick.cron, outcome: "no_workflow_scheduled" }));
  // A tick handed on with `Fetcher.scheduled({ scheduledTime: Date })` arrives as a Date, not the
  // number Cloudflare's cron sends: one number either way, so the run id is the same.
  const scheduledTime = new Date(tick.scheduledTime).getTime();
  const trigger = { kind: "cron", id: `${key}@${new Date(scheduledTime).toISOString()}` } as const;
  const sleep = options.sleep ?? realSleep;
  return Promise.all(
    due.map(async ({ workflowId, schedule }): Promise<ScheduledStart> => {
      const runId = scheduledRunId(workflowId, key, scheduledTime);
      for (let attempt = 1; ; attempt++) {
        let tenant = schedule.tenant ?? "default";
        try {
          tenant = triggerTenant(env, schedule.tenant);
          // A deployed Worker holding well-known example values refuses every start, as its API does.
          assertSecureConfiguration(env);
          const start = { tenant, workflowId, input: schedule.input, runId, trigger } as const;
          const started = await startRun(services, { ...start, conflictCode: "idempotency_conflict" });
          return log({ workflowId, runId, tenant, outcome: started.created ? "started" : "already_started" });
        } catch (error) {
          const wait = CRON_RETRY_DELAYS_MS[attempt - 1];
          if (decideFailure(error, attempt).action === "retry" && attempt < CRON_START_ATTEMPTS && wait !== undefined) {
            await sleep(wait);
            continue;
          }
          const code = (error as { code?: unknown })?.code;
          const message = error instanceof Error ? error.message : String(error);
          if (error instanceof TriggerTenantInvalidError) tenant = error.value;
          const failed = {
            outcome: "failed",
            code: typeof code === "string" ? code : "internal_error",
            message,
            attempts: attempt,
          } as const;
          return log({ workflowId, runId, tenant, ...failed });
        }
      }
    }),
  );
}

function log(start: ScheduledStart): ScheduledStart {
  (start.outcome === "failed" ? console.error : console.log)(JSON.stringify({ kind: "little.cron-tick", ...start }));
  return start;
}
