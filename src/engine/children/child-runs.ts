import type { ChildRuns } from "../../ports/child-runs.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { type StartPorts, startRun } from "../runs/start-service.ts";

/**
 * The {@link ChildRuns} of a host that has the start service's ports (the Worker's wiring): a
 * child starts through {@link startRun} like every run, with its derived id (`run_child_…`, which
 * no caller may choose), the parent's tenant and `trigger: { kind: "child" }`. A refusal is the
 * start service's named error, for the step to fail on (or, with `retryAfterSeconds`, to wait out).
 *
 * @example
 * const children = childRunsOf(wiring);
 * await children.startChild({ tenant, workflowId: "billing.refund", input, runId: childRunId(parentId, "refund", 1), parent });
 */
export function childRunsOf(ports: StartPorts): ChildRuns {
  return {
    async startChild(request) {
      const started = await startRun(ports, {
        tenant: request.tenant,
        workflowId: request.workflowId,
        input: request.input,
        runId: request.runId,
        trigger: { kind: "child", id: `${request.parent.runId}/${request.parent.stepPath}` },
        conflictCode: "run_id_conflict",
        parent: request.parent,
      });
      return { view: started.view };
    },
    async cancel(tenant, runId, placement, reason) {
      await ports.runHandles.open(tenant, runId, placement).cancel(reason);
    },
    async tellParent(parent, request) {
      try {
        return await ports.runHandles.open(parent.tenant, parent.runId, parent.placement).childEnded(request);
      } catch (error) {
        // A refusal is an answer (the parent ended, or knows no such child): nothing waits for this child.
        if (LittleError.is(error)) return null;
        throw error;
      }
    },
  };
}
