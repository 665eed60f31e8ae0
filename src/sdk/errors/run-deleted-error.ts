import { LittleError } from "./little-error.ts";

/**
 * 410 `run_deleted`: the run was deleted (`DELETE /v1/runs/:runId`, retention or a bulk delete).
 * Every route for it answers this, and its id (or the idempotency key that made it) never starts
 * a run again: a tombstone keeps it.
 */
export class RunDeletedError extends LittleError {
  readonly code = "run_deleted";
  readonly runId: string;
  constructor(runId: string, deletedAt?: number) {
    super(
      `Run "${runId}" was deleted${deletedAt !== undefined ? ` at ${new Date(deletedAt).toISOString()}` : ""}; its id cannot be reused`,
    );
    this.name = "RunDeletedError";
    this.runId = runId;
  }
}
