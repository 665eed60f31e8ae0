import { LittleError } from "./little-error.ts";

/** Where a definition names a harness: the planner's or the workers'. */
export type HarnessRef = { readonly path: "$.planner.harness" | "$.worker.harness"; readonly harnessId: string };

/**
 * A definition names a harness id no registered harness has (`planner.harness`, `worker.harness`).
 * Thrown by `defineWorkflow`, so a typo fails when the workflow is defined, not at its first run;
 * `known` lists the ids that would be accepted.
 */
export class HarnessUnknownError extends LittleError {
  readonly code = "harness_unknown";
  readonly workflowId: string;
  readonly unknown: readonly HarnessRef[];
  readonly known: readonly string[];
  constructor(workflowId: string, unknown: readonly HarnessRef[], known: readonly string[]) {
    super(
      `Workflow "${workflowId}" names an unknown harness: ${unknown.map((u) => `${u.path} = ${JSON.stringify(u.harnessId)}`).join(", ")}; known harnesses: ${known.join(", ")}`,
    );
    this.name = "HarnessUnknownError";
    this.workflowId = workflowId;
    this.unknown = unknown;
    this.known = known;
  }
}
