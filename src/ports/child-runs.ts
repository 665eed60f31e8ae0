/**
 * @module The port a `workflow.run` step starts and cancels its child runs through. Behind it is
 * the engine's one start service (src/engine/runs/start-service.ts), so a child is admitted like
 * any other run (input schema, approval, quotas, model readiness); the Worker wires it in
 * `src/wiring.ts` (src/engine/children/child-runs.ts).
 */
import { ChildRunRefusedError } from "../sdk/errors/child-run-refused-error.ts";
import type { ParentRef, RunPlacement } from "./run-events.ts";
import type { ChildEndedRequest, RunView } from "./run-handle.ts";

/** One child to start: its derived id, the callee, its rendered input and the parent to tell when it ends. */
export type ChildStartRequest = {
  readonly tenant: string;
  readonly workflowId: string;
  readonly input: unknown;
  readonly runId: string;
  readonly parent: ParentRef;
};

/** The child as its start left it (a repeat of the same start answers the run as it is). */
export type ChildStartResult = { readonly view: RunView };

export interface ChildRuns {
  /**
   * Starts the child through the start service. A refusal is the start service's named error
   * (`StartRefusedError`, `QuotaExceededError`, …, or `ChildRunRefusedError` where no child can
   * start); one with `retryAfterSeconds` passes with time (a quota, a lost answer).
   */
  startChild(request: ChildStartRequest): Promise<ChildStartResult>;
  /** Cancels a child (its parent was cancelled); a child that has ended is left as it is. */
  cancel(tenant: string, runId: string, placement: RunPlacement | undefined, reason: string): Promise<void>;
  /**
   * Tells a child's parent run that the child ended (the parent's `RunHandle.childEnded`). Resolves
   * once the parent has heard, whatever it answered (a parent that ended, or knows no such child,
   * has no step waiting: its answer is not read); rejects when it could not be reached.
   */
  tellParent(parent: ParentRef, request: ChildEndedRequest): Promise<unknown>;
}

/** For a host that cannot start child runs (the in-memory world, which runs one workflow): every start is refused. */
export const NO_CHILD_RUNS: ChildRuns = {
  startChild: async (request) => {
    throw new ChildRunRefusedError(
      "child_runs_unsupported",
      `This host cannot start child runs (workflow "${request.workflowId}"); run the workflow in the Worker`,
    );
  },
  cancel: async () => {},
  // No run here has a parent: there is no one to tell.
  tellParent: async () => {},
};
