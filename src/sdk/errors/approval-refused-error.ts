import { LittleError } from "./little-error.ts";

/** The codes a run refuses a tool call's approval decision with (nothing stored); each is in the API's one status table. */
export const APPROVAL_REFUSAL_CODES = [
  /** The run asked for no approval of this id (404). */
  "approval_not_found",
  /** The decision quotes another hash than the arguments the run asked about (409). */
  "approval_args_mismatch",
  /** The approval was decided the other way before (409). */
  "approval_already_decided",
  /** The approval's window passed (409). */
  "approval_expired",
] as const;

export type ApprovalRefusalCode = (typeof APPROVAL_REFUSAL_CODES)[number];

/**
 * A decision on a tool call's approval the run refused: nothing was recorded.
 *
 * @example
 * try { await handle.decideApproval(request) } catch (e) { if (LittleError.is(e, "approval_expired")) … }
 */
export class ApprovalRefusedError extends LittleError {
  readonly code: ApprovalRefusalCode;
  constructor(code: ApprovalRefusalCode, message: string) {
    super(message);
    this.name = "ApprovalRefusedError";
    this.code = code;
  }
}
