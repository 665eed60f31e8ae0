import { StartRefusedError } from "../../sdk/errors/start-refused-error.ts";

/**
 * Run id prefixes the Worker derives for its triggers: `run_wh_` from a webhook's workflow and
 * `webhook-id`, `run_cron_` from a schedule's workflow, cron and time, `run_q_` from a queue and
 * message id. The first two are computable from public values, so a caller who could choose such
 * an id could create the run first, with its own input, and the real delivery or tick would meet
 * a conflict on every retry. They are ours alone: a caller's `runId` may not start with them.
 * `run_child_` is a child run's, from its parent's run id, step path and attempt (childRunId):
 * a caller who minted one first would answer the parent's step with a run of its own.
 * `run_restart_` and `run_fork_` are a restart's or fork's, from its source and Idempotency-Key.
 */
export const DERIVED_RUN_ID_PREFIXES = ["run_wh_", "run_cron_", "run_q_", "run_child_", "run_restart_", "run_fork_"] as const;

/** The OpenAPI description of a caller's `runId`. */
export const CALLER_RUN_ID_DESCRIPTION = `Choose the run id (per tenant); starting an existing id returns that run. Ids starting with ${DERIVED_RUN_ID_PREFIXES.join(", ")} are the Worker's own (webhooks, schedules, queues, child runs): 422 \`run_id_reserved\`.`;

export function isDerivedRunId(runId: string): boolean {
  return DERIVED_RUN_ID_PREFIXES.some((prefix) => runId.startsWith(prefix));
}

/** Refuses a caller's run id in a derived namespace: 422 `run_id_reserved`, before anything is stored or counted. */
export function assertCallerRunId(runId: string): void {
  if (isDerivedRunId(runId))
    throw new StartRefusedError(
      "run_id_reserved",
      `The run id ${JSON.stringify(runId)} is reserved: ids starting with ${DERIVED_RUN_ID_PREFIXES.join(", ")} are derived by the Worker for webhooks, schedules, queue messages and child runs. Choose another id, or leave runId out.`,
    );
}
