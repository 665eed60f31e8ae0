import { LittleError } from "./little-error.ts";

/**
 * 409 `section_stale`: a section run locked its body against a definition that is no longer the
 * live one (a redeploy changed it); queued, the occurrence would fail with `capability_drift`.
 * Supersede the section (`POST /v1/runs/{runId}/supersede`); nothing was queued.
 */
export class SectionStaleError extends LittleError {
  readonly code = "section_stale";
  constructor(message: string) {
    super(message);
    this.name = "SectionStaleError";
  }
}
