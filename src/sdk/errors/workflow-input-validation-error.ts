import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/**
 * A run's input (or a section trigger's payload) that does not match the workflow's input schema
 * (compile stage 2). `findings` name every mismatch by JSON path. Answered 422
 * `input_schema_error` by the API, nothing created; inside a run the same check ends it with
 * `RunFailed { causeCode: "input_schema_error" }`.
 *
 * @example
 * try { await client.start("support.summarize-ticket", { ticketId: 7 }); }
 * catch (error) { if (error.code === "input_schema_error") console.log(error.findings); }
 */
export class WorkflowInputValidationError extends LittleError {
  readonly code = "input_schema_error";
  readonly findings: readonly Finding[];
  constructor(workflowId: string, findings: readonly Finding[], subject: "input" | "trigger payload" = "input") {
    super(`The ${subject} does not match the input schema of "${workflowId}"`);
    this.name = "WorkflowInputValidationError";
    this.findings = findings;
  }
}
