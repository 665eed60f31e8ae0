import { LittleError } from "./little-error.ts";

/**
 * 404 `run_not_found`: no run has this id for this tenant (another tenant's run is not found
 * either: run ids are per tenant), or its object holds no run (a minted anchor not started yet).
 */
export class RunNotFoundError extends LittleError {
  readonly code = "run_not_found";
  readonly runId: string;
  constructor(runId: string) {
    super(`No run "${runId}"`);
    this.name = "RunNotFoundError";
    this.runId = runId;
  }
}
