/**
 * The Worker's non-HTTP triggers: cron ticks and queue messages. Contract shared by
 * `createWorker` (which wires these into the default export) and the trigger implementation.
 * Being built in this session; see issue #17.
 */

/** Starts a run for every registered workflow whose `schedule` matches this tick. */
export async function handleScheduled(_controller: ScheduledController, _env: Env, _ctx: ExecutionContext): Promise<void> {
  throw new Error("handleScheduled: not built yet");
}

/** Starts one run per message (the message id is the idempotency key). */
export async function handleQueue(_batch: MessageBatch<unknown>, _env: Env, _ctx: ExecutionContext): Promise<void> {
  throw new Error("handleQueue: not built yet");
}
