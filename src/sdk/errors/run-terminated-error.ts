import { LittleError } from "./little-error.ts";

/** An append to a run whose log already ended (completed, failed or cancelled). */
export class RunTerminatedError extends LittleError {
  readonly code = "run_terminated";
  constructor(runId: string, terminal: string) {
    super(`Run ${runId} already ended (${terminal}); nothing more is appended`);
    this.name = "RunTerminatedError";
  }
}
