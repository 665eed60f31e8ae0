import { LittleError } from "./little-error.ts";

/**
 * A workflow declares a callee (`defineWorkflow({ workflows })`) that the registry does not
 * register: refused when the registry is built, since a `workflow.run` of it could never start.
 */
export class WorkflowCalleeMissingError extends LittleError {
  readonly code = "workflow_callee_missing";
  readonly workflowId: string;
  readonly missing: readonly string[];
  constructor(workflowId: string, missing: readonly string[]) {
    super(
      `Workflow "${workflowId}" may call ${missing.map((m) => `"${m}"`).join(", ")}, which ${missing.length > 1 ? "are" : "is"} not registered; register every callee with it (src/workflows.ts)`,
    );
    this.name = "WorkflowCalleeMissingError";
    this.workflowId = workflowId;
    this.missing = missing;
  }
}
