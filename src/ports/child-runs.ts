/**
 * @module The port a `workflow.run` step starts and cancels its child runs through. Behind it is
 * the engine's one start service (src/engine/runs/start-service.ts), so a child is admitted like
 * any other run (input schema, approval, quotas, model readiness); the Worker wires it in
 * `src/wiring.ts` (src/engine/children/child-runs.ts).
 */
import type { ParentRef, RunPlacement } from "./run-events.ts";
import type { ChildEndedRequest, ChildEndedResult, RunView } from "./run-handle.ts";

/** One child to start: its derived id, the callee, its rendered input and the parent to tell when it ends. */
export type ChildStartRequest = {
  readonly tenant: string;
  readonly workflowId: string;
  readonly input: unknown;
  readonly runId: string;
  readonly parent: ParentRef;
};

/**
 * The child as its start left it (a repeat of the same start answers the run as it is), or why the
 * start service refused it: `retryAfterSeconds` when the refusal passes with time (a quota, a lost answer).
 */
export type ChildStartResult =
  | { readonly ok: true; readonly view: RunView }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly retryAfterSeconds?: number };

export interface ChildRuns {
  startChild(request: ChildStartRequest): Promise<ChildStartResult>;
  /** Cancels a child (its parent was cancelled); a child that has ended is left as it is. */
  cancel(tenant: string, runId: string, placement: RunPlacement | undefined, reason: string): Promise<void>;
  /** Tells a child's parent run that the child ended (the parent's `RunHandle.childEnded`). */
  tellParent(parent: ParentRef, request: ChildEndedRequest): Promise<ChildEndedResult>;
}

/** For a host that cannot start child runs (the in-memory world, which runs one workflow): every start is refused. */
export const NO_CHILD_RUNS: ChildRuns = {
  startChild: async (request) => ({
    ok: false,
    code: "child_runs_unsupported",
    message: `This host cannot start child runs (workflow "${request.workflowId}"); run the workflow in the Worker`,
  }),
  cancel: async () => {},
  tellParent: async () => ({ ok: false, code: "run_not_found", message: "This host has no parent runs" }),
};
