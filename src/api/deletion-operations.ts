import { deleteRun } from "../engine/deletion/delete-run.ts";
import type { RunTombstone } from "../ports/run-deletions.ts";
import type { ApiServices } from "./api-env.ts";

/** A deleted run as the API answers it (the tombstone without its placement or state). */
export type DeletedRun = { runId: string; workflowId: string; deletedAt: string; by: string };

/**
 * Deletes a tenant's run (HTTP `DELETE /v1/runs/:runId` and the RPC entrypoint's `deleteRun`):
 * the engine's deletion, so both doors purge the same and answer the same errors.
 */
export async function deleteTenantRun(
  services: ApiServices,
  tenant: string,
  runId: string,
  options: { readonly cancel: boolean; readonly by: string },
): Promise<DeletedRun> {
  return toDeletedRun(await deleteRun(services, { tenant, runId, cancel: options.cancel, by: options.by }));
}

export function toDeletedRun(tombstone: RunTombstone): DeletedRun {
  return {
    runId: tombstone.runId,
    workflowId: tombstone.workflowId,
    deletedAt: new Date(tombstone.deletedAt).toISOString(),
    by: tombstone.by,
  };
}
