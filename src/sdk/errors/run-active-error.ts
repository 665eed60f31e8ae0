import { LittleError } from "./little-error.ts";

/** 409 `run_active`: the operation needs an ended run (delete one with `?cancel=true` to cancel it first). */
export class RunActiveError extends LittleError {
  readonly code = "run_active";
  constructor(runId: string, status: string, remedy = "cancel it first, or delete with ?cancel=true") {
    super(`Run "${runId}" has not ended (${status}); ${remedy}`);
    this.name = "RunActiveError";
  }
}
