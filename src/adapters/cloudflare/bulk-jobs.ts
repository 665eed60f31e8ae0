import type { BulkJobHandle, BulkJobs } from "../../ports/bulk-jobs.ts";
import { BulkActionRefusedError } from "../../sdk/errors/bulk-action-refused-error.ts";

type Branded = Rpc.DurableObjectBranded | undefined;

/**
 * The {@link BulkJobs} port over Durable Object RPC: one object per job, named `<tenant>:<job id>`,
 * so a job id from another tenant opens an empty object (its status is null: 404).
 */
export function bulkJobs<T extends Branded>(namespace: DurableObjectNamespace<T> | undefined): BulkJobs {
  return {
    open(tenant, jobId) {
      if (!namespace)
        throw new BulkActionRefusedError(
          "bulk_action_unsupported",
          "This Worker has no BULK Durable Object binding (BulkJobObject): add it and its migration v3 (docs/deploy.md)",
        );
      return namespace.get(namespace.idFromName(`${tenant}:${jobId}`)) as unknown as BulkJobHandle;
    },
  };
}
