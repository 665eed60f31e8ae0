import { LittleError } from "./little-error.ts";

/**
 * A registry whose workflows call each other in a cycle (A may call B, B may call A, directly or
 * through others, `defineWorkflow({ workflows })`): refused when the registry is built, so no run
 * can recurse without end. `cycle` is the path, first workflow repeated at the end.
 *
 * @example
 * catalogOf([{ definition: a, tools: {} }, { definition: b, tools: {} }]) // throws: workflow_call_cycle a → b → a
 */
export class WorkflowCallCycleError extends LittleError {
  readonly code = "workflow_call_cycle";
  readonly cycle: readonly string[];
  constructor(cycle: readonly string[]) {
    super(`Workflows call each other in a cycle: ${cycle.join(" → ")}; a workflow may not (even indirectly) call itself`);
    this.name = "WorkflowCallCycleError";
    this.cycle = cycle;
  }
}
