import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/** A `defineWorkflow` call whose definition is malformed; `findings` lists every problem. */
export class WorkflowDefinitionError extends LittleError {
  readonly code = "workflow_definition_invalid";
  readonly findings: readonly Finding[];
  constructor(workflowId: string, findings: readonly Finding[]) {
    super(`Workflow definition "${workflowId}" is invalid: ${findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`);
    this.name = "WorkflowDefinitionError";
    this.findings = findings;
  }
}
