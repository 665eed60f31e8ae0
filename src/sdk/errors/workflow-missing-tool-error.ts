import { LittleError } from "./little-error.ts";

/** A `globalTools` name that the tool registry given to the run does not have. */
export class WorkflowMissingToolError extends LittleError {
  readonly code = "workflow_missing_tool";
  readonly workflowId: string;
  readonly missing: readonly string[];
  constructor(workflowId: string, missing: readonly string[]) {
    super(
      `Workflow "${workflowId}" names global tool${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")} that the tool registry does not have`,
    );
    this.name = "WorkflowMissingToolError";
    this.workflowId = workflowId;
    this.missing = missing;
  }
}
