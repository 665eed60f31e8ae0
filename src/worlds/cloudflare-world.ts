import { startRun } from "../engine/runs/start-service.ts";
import type { RunView } from "../ports/run-handle.ts";
import { isSettledStatus } from "../ports/run-status.ts";
import type { RunRequest, RunResult, World } from "../ports/world.ts";
import { WorkflowNotRegisteredError } from "../sdk/errors/workflow-not-registered-error.ts";
import { assertSecureConfiguration } from "../wiring/insecure-configuration.ts";
import { wire } from "../wiring.ts";

const WAIT_SLICE_MS = 30_000;

/**
 * The Cloudflare {@link World}: one Durable Object per run, versions and the run index in D1. The
 * run object looks the workflow up by id in the Worker's registry, so `request.workflow` must be
 * the registered definition (and its tools the registered tools). The start goes through the
 * engine's start service, as every other start: the input schema, approvals, quotas and model
 * readiness hold for `runWorkflow` too, and a run id reused with another input is `run_id_conflict`.
 */
export class CloudflareWorld implements World {
  private readonly env: Env;

  constructor(env: Env) {
    this.env = env;
  }

  async run(request: RunRequest): Promise<RunResult> {
    const wiring = wire(this.env);
    const registered = wiring.workflows.get(request.workflow.id);
    if (!registered || registered.definition !== request.workflow) throw new WorkflowNotRegisteredError(request.workflow.id);
    assertSecureConfiguration(this.env);
    const started = await startRun(wiring, {
      tenant: request.tenant,
      workflowId: request.workflow.id,
      input: request.input,
      runId: request.runId,
      trigger: request.trigger,
      conflictCode: "run_id_conflict",
      ...(request.lwir !== undefined ? { lwir: request.lwir } : {}),
      waitMs: WAIT_SLICE_MS,
    });
    const run = wiring.runHandles.open(request.tenant, request.runId, started.placement);
    // Ended, or a section waiting for its next trigger (waitForEnd answers that at once: looping
    // on it would spin). A run waiting for an approval holds the loop until it is decided.
    for (let view: RunView = started.view; ; view = await run.waitForEnd(WAIT_SLICE_MS)) {
      if (isSettledStatus(view.status, view.waitReason)) {
        const { workflowId: _w, eventCount: _n, createdAt: _c, ...result } = view;
        return result;
      }
    }
  }
}
