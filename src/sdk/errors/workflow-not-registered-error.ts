import { LittleError } from "./little-error.ts";

/**
 * A workflow started in the Cloudflare world that the Worker does not register. Run objects
 * resolve definitions by id from the Worker's registry (code cannot cross RPC), so a workflow must
 * be listed in `src/workflows.ts` to run there.
 */
export class WorkflowNotRegisteredError extends LittleError {
  readonly code = "workflow_not_registered";
  constructor(workflowId: string) {
    super(`Workflow "${workflowId}" is not registered in this Worker; add it to src/workflows.ts`);
    this.name = "WorkflowNotRegisteredError";
  }
}
