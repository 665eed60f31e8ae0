import { LittleError } from "./little-error.ts";

/** The codes a guarded end of a run (a revoked approval, a superseded section) is refused with; each is in the API's one status table. */
export const RUN_END_REFUSAL_CODES = [
  /** The run was not started under the approval the end names (409): a revoke leaves it alone. */
  "run_not_under_approval",
  /** The run is not a section (409). */
  "run_not_a_section",
  /** The section has an occurrence running (409): supersede it once it waits. */
  "section_not_waiting",
] as const;

export type RunEndRefusalCode = (typeof RUN_END_REFUSAL_CODES)[number];

/**
 * An end of a run with a named cause that its guard refused: the run goes on, nothing appended.
 *
 * @example
 * try { await handle.end(request) } catch (e) { if (LittleError.is(e, "section_not_waiting")) … }
 */
export class RunEndRefusedError extends LittleError {
  readonly code: RunEndRefusalCode;
  constructor(code: RunEndRefusalCode, message: string) {
    super(message);
    this.name = "RunEndRefusedError";
    this.code = code;
  }
}
