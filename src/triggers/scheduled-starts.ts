import { assertSecureConfiguration } from "../api/insecure-configuration.ts";
import { startRun } from "../api/start-run.ts";
import { digestJson, digestPrefix } from "../json/digest.ts";
import { cronKey } from "../sdk/cron.ts";
import { TriggerTenantInvalidError } from "../sdk/errors/trigger-tenant-invalid-error.ts";
import type { Schedule } from "../sdk/schedule.ts";
import { wire } from "../wiring.ts";
import { triggerTenant } from "./trigger-tenant.ts";

/** One tick's start of one workflow (also logged, one JSON line each). */
export type ScheduledStart = { readonly workflowId: string; readonly runId: string; readonly tenant: string } & (
  | { readonly outcome: "started" | "already_started" }
  | { readonly outcome: "failed"; readonly code: string; readonly message: string }
);

/**
 * The run id of a tick: derived from the workflow, the cron expression and the tick's scheduled
 * time, so a tick delivered twice (a retry, two isolates) reaches the same run object, which
 * starts the run once.
 */
export function scheduledRunId(workflowId: string, cron: string, scheduledTime: number): string {
  return `run_cron_${digestPrefix(digestJson({ workflowId, cron: cronKey(cron), scheduledTime }), 24)}`;
}

/**
 * Starts a run of every registered workflow with a schedule on this tick's cron expression, through
 * the same start as the HTTP trigger (input schema, approvals, quotas, the run index). Each start
 * stands alone: one that fails is reported and the others go on.
 */
export async function startScheduledRuns(tick: Pick<ScheduledController, "cron" | "scheduledTime">, env: Env): Promise<ScheduledStart[]> {
  const services = wire(env);
  const key = cronKey(tick.cron);
  const due: { workflowId: string; schedule: Schedule }[] = [];
  for (const workflowId of services.workflows.ids()) {
    const schedule = services.workflows.get(workflowId)?.definition.schedule?.find((s) => cronKey(s.cron) === key);
    if (schedule) due.push({ workflowId, schedule });
  }
  if (due.length === 0) console.warn(JSON.stringify({ kind: "little.cron-tick", cron: tick.cron, outcome: "no_workflow_scheduled" }));
  const at = new Date(tick.scheduledTime).toISOString();
  return Promise.all(
    due.map(async ({ workflowId, schedule }): Promise<ScheduledStart> => {
      const runId = scheduledRunId(workflowId, key, tick.scheduledTime);
      let tenant = schedule.tenant ?? "default";
      try {
        tenant = triggerTenant(env, schedule.tenant);
        // A deployed Worker holding well-known example values refuses every start, as its API does.
        assertSecureConfiguration(env);
        const started = await startRun({
          env,
          services,
          tenant,
          workflowId,
          input: schedule.input,
          runId,
          trigger: { kind: "cron", id: `${key}@${at}` },
          conflictCode: "idempotency_conflict",
        });
        return log({ workflowId, runId, tenant, outcome: started.created ? "started" : "already_started" });
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof TriggerTenantInvalidError) tenant = error.value;
        return log({ workflowId, runId, tenant, outcome: "failed", code: typeof code === "string" ? code : "internal_error", message });
      }
    }),
  );
}

function log(start: ScheduledStart): ScheduledStart {
  (start.outcome === "failed" ? console.error : console.log)(JSON.stringify({ kind: "little.cron-tick", ...start }));
  return start;
}
