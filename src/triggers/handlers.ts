/**
 * The Worker's non-HTTP triggers: cron ticks and queue messages (docs/triggers.md). Contract
 * shared by `createWorker` (which wires these into the default export) and the implementation
 * beside this file.
 */
import { consumeRunMessages } from "./queue-consumer.ts";
import { runRetention } from "./retention.ts";
import { type ScheduledStart, startScheduledRuns } from "./scheduled-starts.ts";

/**
 * Starts a run for every registered workflow whose `schedule` has this tick's cron expression, and
 * sweeps retention (every tick: retention.ts).
 * Throws when a start failed, so the tick shows as failed in Cloudflare's cron events; the other
 * starts of the tick still happened.
 */
export async function handleScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
  const [starts] = await Promise.all([startScheduledRuns(controller, env), runRetention(env)]);
  const failed = starts.filter((s): s is Extract<ScheduledStart, { outcome: "failed" }> => s.outcome === "failed");
  if (failed.length > 0)
    throw new Error(
      `Cron "${controller.cron}": ${failed.length} of ${starts.length} scheduled runs did not start (${failed.map((f) => `${f.workflowId}: ${f.code}`).join(", ")})`,
    );
}

/** Starts one run per message (the message id is the idempotency key); acks, retries or dead-letters each message on its own. */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext): Promise<void> {
  await consumeRunMessages(batch, env);
}
