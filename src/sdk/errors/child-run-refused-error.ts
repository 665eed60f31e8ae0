import { LittleError } from "./little-error.ts";

/** The codes of refusals between a parent run and its child runs (never a caller's request); each is in the API's one status table. */
export const CHILD_RUN_REFUSAL_CODES = [
  /** The run told of a child's end has no child of that id (404). */
  "child_not_found",
  /** This host cannot start child runs (the in-memory world runs one workflow): run the workflow in the Worker (409). */
  "child_runs_unsupported",
] as const;

export type ChildRunRefusalCode = (typeof CHILD_RUN_REFUSAL_CODES)[number];

/** A refusal between a parent run and its children: a `workflow.run` step fails on it (`child_start_refused`). */
export class ChildRunRefusedError extends LittleError {
  readonly code: ChildRunRefusalCode;
  constructor(code: ChildRunRefusalCode, message: string) {
    super(message);
    this.name = "ChildRunRefusedError";
    this.code = code;
  }
}
