import type { ChildRuns } from "../../ports/child-runs.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { type StartPorts, startRun } from "../runs/start-service.ts";

/**
 * The {@link ChildRuns} of a host that has the start service's ports (the Worker's wiring): a
 * child starts through {@link startRun} like every run, with its derived id (`run_child_…`, which
 * no caller may choose), the parent's tenant and `trigger: { kind: "child" }`. A refusal comes back
 * as data for the step to fail on (or, with `retryAfterSeconds`, to wait out); nothing else is caught.
 *
 * @example
 * const children = childRunsOf(wiring);
 * await children.startChild({ tenant, workflowId: "billing.refund", input, runId: childRunId(parentId, "refund", 1), parent });
 */
export function childRunsOf(ports: StartPorts): ChildRuns {
  return {
    async startChild(request) {
      try {
        const started = await startRun(ports, {
          tenant: request.tenant,
          workflowId: request.workflowId,
          input: request.input,
          runId: request.runId,
          trigger: { kind: "child", id: `${request.parent.runId}/${request.parent.stepPath}` },
          conflictCode: "run_id_conflict",
          parent: request.parent,
        });
        return { ok: true, view: started.view };
      } catch (error) {
        if (!LittleError.is(error)) throw error;
        const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
        return {
          ok: false,
          code: error.code,
          message: error.message,
          ...(typeof retryAfter === "number" ? { retryAfterSeconds: retryAfter } : {}),
        };
      }
    },
    async cancel(tenant, runId, placement, reason) {
      await ports.runHandles.open(tenant, runId, placement).cancel(reason);
    },
    tellParent: (parent, request) => ports.runHandles.open(parent.tenant, parent.runId, parent.placement).childEnded(request),
  };
}
