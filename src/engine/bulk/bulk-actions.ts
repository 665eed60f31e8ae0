/**
 * @module What a bulk job does to one run, by action: a small map, so an action is added by adding
 * its entry. Each is idempotent per run: a crash between acting and recording the act repeats it
 * with the same result (a restart's new run id derives from the job, so a repeat finds it).
 */
import type { BulkAction } from "../../ports/bulk-jobs.ts";
import { BulkActionRefusedError } from "../../sdk/errors/bulk-action-refused-error.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { StartRefusedError } from "../../sdk/errors/start-refused-error.ts";
import { type DeletionPorts, deleteRun } from "../deletion/delete-run.ts";
import type { ForkPorts } from "../runs/fork-source.ts";
import { restartRun } from "../runs/restart-run.ts";

/** What a bulk job acts through: deleting, cancelling and restarting runs. */
export type BulkPorts = DeletionPorts & ForkPorts;

/** Acts on one run of the job's tenant; throws a named error when the run refuses (recorded as a failure). */
export type BulkRunAction = (ports: BulkPorts, target: { tenant: string; runId: string; jobId: string }) => Promise<void>;

/** Cancelling an ended run changes nothing (counted as done); a minted anchor is cancelled in the index. */
const cancel: BulkRunAction = async (ports, { tenant, runId, jobId }) => {
  const entry = await ports.runs.get(tenant, runId);
  if (!entry) throw new StartRefusedError("run_not_found", `No run "${runId}"`);
  if (entry.status === "minted" && (await ports.runs.cancelAnchor(tenant, runId, ports.clock.now()))) return;
  await ports.runHandles.open(tenant, runId, entry.placement).cancel(`cancelled by bulk job ${jobId}`);
};

/** A run deleted already (this job's earlier attempt, or anyone's) is done. */
const remove: BulkRunAction = async (ports, { tenant, runId, jobId }) => {
  try {
    await deleteRun(ports, { tenant, runId, cancel: false, by: `bulk:${jobId}` });
  } catch (error) {
    if (LittleError.is(error) && error.code === "run_deleted") return;
    throw error;
  }
};

/**
 * A restart from the run's first failed step (a run with none is refused, `restart_no_failed_step`,
 * and counted as a failure): one new run per run and job, its id derived from the job's id.
 */
const restart: BulkRunAction = async (ports, { tenant, runId, jobId }) => {
  await restartRun(ports, tenant, runId, { idempotencyKey: `bulk:${jobId}` });
};

/** The actions this Worker runs. */
export const BULK_RUN_ACTIONS: Readonly<Partial<Record<BulkAction, BulkRunAction>>> = { cancel, delete: remove, restart };

/** The action's function; 422 `bulk_action_unsupported` for one this Worker does not run yet. */
export function bulkRunAction(action: BulkAction): BulkRunAction {
  const act = BULK_RUN_ACTIONS[action];
  if (!act)
    throw new BulkActionRefusedError(
      "bulk_action_unsupported",
      `The bulk action "${action}" is not available on this Worker yet`,
      "$.action",
    );
  return act;
}
