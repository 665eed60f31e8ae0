/**
 * @module Restart from a step (docs/runs.md, "Restart and forks"): a new run of the same version,
 * through the one start service, whose steps not downstream of `fromStep` take the source's
 * recorded results (no model, tool or sandbox call) and whose `fromStep` and everything after it run
 * afresh. The HTTP route, the RPC entrypoint and bulk actions call {@link restartRun}.
 */
import type { RunView } from "../../ports/run-handle.ts";
import { RunForkRefusedError } from "../../sdk/errors/run-fork-refused-error.ts";
import { downstreamOf, planReuse, type ReusePlan } from "../memo/reuse-plan.ts";
import { firstFailedStep } from "../memo/source-run.ts";
import { type ForkPorts, forkRunId, linkToSource, loadEndedSource } from "./fork-source.ts";
import { startRun } from "./start-service.ts";

export type RestartOptions = {
  /** The first step to run afresh; default the source's first failed step. */
  readonly fromStep?: string | undefined;
  /** A retried restart with the same key returns the same run. */
  readonly idempotencyKey?: string | undefined;
  /** Answer when the new run has ended, or after this many ms. */
  readonly waitMs?: number | undefined;
};

export type RestartedRun = {
  readonly runId: string;
  readonly sourceRunId: string;
  readonly fromStep: string;
  readonly view: RunView;
  /** False when a retry found the run its first attempt started. */
  readonly created: boolean;
  readonly plan: ReusePlan;
};

/**
 * Restarts the tenant's ended run `runId` from a step. Refusals, before anything is stored: 404
 * `run_not_found`, 409 `run_active`, 409 `run_not_forkable`, 422 `restart_step_unknown` (naming
 * the version's step ids), 422 `restart_no_failed_step`, and whatever the start service refuses.
 */
export async function restartRun(ports: ForkPorts, tenant: string, runId: string, options: RestartOptions = {}): Promise<RestartedRun> {
  const loaded = await loadEndedSource(ports, tenant, runId);
  const { source } = loaded;
  const steps = source.lwir.steps;
  const fromStep = options.fromStep ?? firstFailedStep(source)?.id;
  if (fromStep === undefined)
    throw new RunForkRefusedError("restart_no_failed_step", `No step of run "${runId}" failed; name the step to restart from (fromStep)`);
  if (!steps.some((s) => s.id === fromStep)) {
    const ids = steps.map((s) => s.id);
    throw new RunForkRefusedError("restart_step_unknown", `Run "${runId}" has no step "${fromStep}"; its steps are ${ids.join(", ")}`, [
      {
        severity: "error",
        code: "restart.step_unknown",
        path: "$.fromStep",
        message: `unknown step "${fromStep}"; known: ${ids.join(", ")}`,
      },
    ]);
  }
  const rerun = downstreamOf(steps, fromStep);
  const plan = planReuse({ steps, snapshot: source.snapshot, input: source.input, memo: loaded.memo, rerun, usageOf: loaded.usageOf });
  const newRunId = forkRunId(tenant, runId, "restart", options.idempotencyKey && `${fromStep}\u0000${options.idempotencyKey}`);
  const started = await startRun(ports, {
    tenant,
    workflowId: source.workflowId,
    input: source.input,
    runId: newRunId,
    trigger: { kind: "restart", id: runId },
    lwir: source.lwir,
    memo: {
      relation: "restart",
      sourceRunId: runId,
      ...(Object.keys(loaded.entry.placement).length > 0 ? { placement: loaded.entry.placement } : {}),
      fromStep,
      rerun: [...rerun].sort(),
    },
    conflictCode: "idempotency_conflict",
    waitMs: options.waitMs,
  });
  await linkToSource(ports, tenant, runId, newRunId, "restart");
  return { runId: newRunId, sourceRunId: runId, fromStep, view: started.view, created: started.created, plan };
}
