/**
 * @module Deleting a run (docs/runs.md, "Retention and deletion"): every door (the API, the RPC
 * entrypoint, the retention cron, a bulk job) calls {@link deleteRun}. Ordered so that a crash at
 * any point is finished by the next attempt with the same result: the tombstone first (`pending`,
 * so routes answer 410 and the cron can find the unfinished purge), then the children, the run
 * object's storage, its blobs and its rows, and last the tombstone marked `done`.
 */
import type { RunBlobPurger } from "../../ports/blob-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { RunDeletions, RunTombstone } from "../../ports/run-deletions.ts";
import type { RunIndex } from "../../ports/run-index.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import type { UnusedVersions } from "../../ports/unused-versions.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { RunActiveError } from "../../sdk/errors/run-active-error.ts";
import { RunDeletedError } from "../../sdk/errors/run-deleted-error.ts";
import { findTenantRun, type RunLookupPorts } from "../runs/find-tenant-run.ts";
import { VERSION_GRACE_MS, versionsNamed } from "./unused-versions.ts";

/** What deleting a run works over; the Worker's wiring has every one. */
export type DeletionPorts = RunLookupPorts & {
  readonly runs: RunIndex;
  readonly deletions: RunDeletions;
  readonly purgeBlobs: RunBlobPurger;
  readonly unusedVersions: UnusedVersions;
  readonly clock: Clock;
};

export type DeleteRunCommand = {
  readonly tenant: string;
  readonly runId: string;
  /** Cancel a run that has not ended first; without it such a run is refused (409 `run_active`). */
  readonly cancel: boolean;
  /** Who asks: a token id, `dev`, `admin`, `retention`, `bulk:<job id>` (kept on the tombstone). */
  readonly by: string;
};

/**
 * Deletes a tenant's run and its child runs, leaving a tombstone. A run whose deletion crashed
 * (tombstone `pending`) is finished; one already deleted is 410 `run_deleted`; another tenant's or
 * an unknown run is 404 `run_not_found` and nothing is touched.
 */
export async function deleteRun(ports: DeletionPorts, command: DeleteRunCommand): Promise<RunTombstone> {
  const existing = await ports.deletions.tombstone(command.tenant, command.runId);
  if (existing?.state === "done") throw new RunDeletedError(command.runId, existing.deletedAt);
  const tombstone = existing ?? (await beginDeletion(ports, command));
  await purgeRun(ports, tombstone);
  return { ...tombstone, state: "done" };
}

/** Finds the run, ends it when asked to, and writes its pending tombstone. */
async function beginDeletion(ports: DeletionPorts, command: DeleteRunCommand): Promise<RunTombstone> {
  const { tenant, runId } = command;
  // 404 `run_not_found` for another tenant's or an unknown run (its tombstone, if any, was read above).
  const { client: handle, workflowId, placement, entry } = await findTenantRun(ports, tenant, runId);
  // A minted anchor has no run object yet: its index row is all there is.
  const status = entry?.status === "minted" ? "minted" : (await handle.status()).status;
  if (!isEndedStatus(status)) {
    if (!command.cancel) throw new RunActiveError(runId, status);
    if (status === "minted") await ports.runs.cancelAnchor(tenant, runId, ports.clock.now());
    else await handle.cancel(`cancelled to be deleted (${command.by})`);
  }
  return ports.deletions.begin({
    tenant,
    runId,
    workflowId,
    placement,
    by: command.by,
    deletedAt: ports.clock.now(),
  });
}

/** The purge behind a pending tombstone; each part is idempotent, so running it again after a crash is safe. */
export async function purgeRun(ports: DeletionPorts, tombstone: RunTombstone): Promise<void> {
  const { tenant, runId } = tombstone;
  const handle = ports.runHandles.open(tenant, runId, tombstone.placement);
  // Children first: their ids are in this run's log, which its purge removes.
  const view = await handle.status();
  for (const child of view.children ?? []) await deleteChild(ports, tenant, child.runId, tombstone.by);
  // Read before the run object and the index row go; after a crash past here the cron's sweep finds them.
  const versions = versionsNamed(view.versionId, (await ports.runs.get(tenant, runId))?.versionId);
  // Refused (RunActiveError) only for a run started again in between (it had not ended when its tombstone was written).
  await handle.purge(tombstone.deletedAt);
  await ports.purgeBlobs({ tenant, runId });
  await ports.deletions.purgeRows(tenant, runId);
  // Versions stay while anything references them, or a run registered them within the grace period.
  await ports.unusedVersions.collect(versions, ports.clock.now() - VERSION_GRACE_MS);
  await ports.deletions.finish(tenant, runId);
}

/** A child goes with its parent, cancelled first if it still runs; one deleted before, or never started, is done already. */
async function deleteChild(ports: DeletionPorts, tenant: string, runId: string, by: string): Promise<void> {
  try {
    await deleteRun(ports, { tenant, runId, cancel: true, by });
  } catch (error) {
    if (LittleError.is(error) && (error.code === "run_deleted" || error.code === "run_not_found")) return;
    throw error;
  }
}
