import { z } from "@hono/zod-openapi";
import { bulkRunAction } from "../engine/bulk/bulk-actions.ts";
import { BULK_ACTIONS, type BulkAction, type BulkFilter, type BulkJobView } from "../ports/bulk-jobs.ts";
import { RUN_STATUSES, WAIT_REASONS } from "../ports/run-status.ts";
import { BulkActionRefusedError } from "../sdk/errors/bulk-action-refused-error.ts";
import type { ApiServices } from "./api-env.ts";
import { ApiError } from "./api-error.ts";
import { insufficientScope } from "./auth.ts";
import type { Principal } from "./principal.ts";
import { actorOf } from "./revoke-approval.ts";
import { scopesAllow } from "./route-scopes.ts";

/**
 * Bulk actions as every door (HTTP routes/bulk-actions.ts, the RPC entrypoint) states them: the
 * request is checked here (each refusal a named 422, no job created), then one job object is
 * started per request (src/engine/bulk/bulk-job.ts walks the index from its alarm).
 */

/** A date as ISO-8601 text or epoch ms. */
const DateValue = z.union([z.string(), z.number()]).openapi({ description: "ISO-8601, or epoch milliseconds" });

export const BulkFilterBody = z
  .object({
    workflowId: z.string().min(1).optional(),
    status: z
      .string()
      .optional()
      .openapi({ enum: [...RUN_STATUSES] }),
    waitReason: z
      .string()
      .optional()
      .openapi({ enum: [...WAIT_REASONS] }),
    tag: z.string().optional().openapi({ description: "`key:value`: only runs started with that tag (`GET /v1/runs?tag=`)" }),
    createdAfter: DateValue.optional(),
    createdBefore: DateValue.optional(),
  })
  .openapi("BulkFilter");

export const BulkRequestBody = z
  .object({
    action: z.string().openapi({ enum: [...BULK_ACTIONS], description: "`restart` is not available yet (422 `bulk_action_unsupported`)" }),
    filter: BulkFilterBody.optional(),
    dryRun: z.boolean().optional().openapi({ description: "Count what matches (and list the first 100 ids); act on nothing" }),
  })
  .openapi("BulkActionRequest");

export type BulkRequest = z.infer<typeof BulkRequestBody>;

/** Starts a bulk job for the tenant; answers the job as it starts. */
export async function startBulkJob(services: ApiServices, tenant: string, caller: BulkCaller, request: BulkRequest): Promise<BulkJobView> {
  const action = parseAction(request.action);
  const filter = parseFilter(request.filter ?? {});
  const dryRun = request.dryRun === true;
  // Deleting in bulk needs what deleting one run needs.
  if (action === "delete" && !dryRun && !caller.mayDelete) throw insufficientScope("runs:delete");
  if (!dryRun) bulkRunAction(action);
  const jobId = `bulk_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
  return services.bulkJobs
    .open(tenant, jobId)
    .create({ jobId, tenant, action, filter, dryRun, by: caller.by, createdAt: services.clock.now() });
}

/** Who starts a job: whether they may delete runs, and the name deletions record. */
export type BulkCaller = { readonly mayDelete: boolean; readonly by: string };

/** An HTTP caller: deleting needs `runs:delete` (or `admin`). */
export function bulkCallerOf(principal: Principal): BulkCaller {
  return { mayDelete: principal.kind === "admin" || scopesAllow(principal.scopes, "runs:delete"), by: actorOf(principal) };
}

/** A tenant's job; another tenant's id is not found. */
export async function readBulkJob(services: ApiServices, tenant: string, jobId: string): Promise<BulkJobView> {
  const view = /^bulk_[0-9a-f]{24}$/.test(jobId) ? await services.bulkJobs.open(tenant, jobId).status() : null;
  if (!view) throw new ApiError("bulk_job_not_found", `No bulk job "${jobId}"`);
  return view;
}

function parseAction(action: string): BulkAction {
  if ((BULK_ACTIONS as readonly string[]).includes(action)) return action as BulkAction;
  throw new BulkActionRefusedError("bulk_action_unknown", `Unknown bulk action "${action}"; one of ${BULK_ACTIONS.join(", ")}`, "$.action");
}

function parseFilter(body: z.infer<typeof BulkFilterBody>): BulkFilter {
  const tag = body.tag;
  if (tag !== undefined && !/^[^:]+:.*$/.test(tag))
    throw new BulkActionRefusedError("bulk_filter_invalid", `A tag filter is "key:value", not "${tag}"`, "$.filter.tag");
  const status = body.status;
  if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status))
    throw new BulkActionRefusedError("bulk_filter_invalid", `Unknown status "${status}"`, "$.filter.status");
  const waitReason = body.waitReason;
  if (waitReason !== undefined && !(WAIT_REASONS as readonly string[]).includes(waitReason))
    throw new BulkActionRefusedError("bulk_filter_invalid", `Unknown wait reason "${waitReason}"`, "$.filter.waitReason");
  const createdAfter = dateOf(body.createdAfter, "createdAfter");
  const createdBefore = dateOf(body.createdBefore, "createdBefore");
  if (createdAfter !== undefined && createdBefore !== undefined && createdAfter >= createdBefore)
    throw new BulkActionRefusedError("bulk_filter_invalid", "createdAfter must be before createdBefore", "$.filter.createdAfter");
  return {
    ...(body.workflowId ? { workflowId: body.workflowId } : {}),
    ...(tag !== undefined ? { tag } : {}),
    ...(status ? { status: status as BulkFilter["status"] & string } : {}),
    ...(waitReason ? { waitReason: waitReason as BulkFilter["waitReason"] & string } : {}),
    ...(createdAfter !== undefined ? { createdAfter } : {}),
    ...(createdBefore !== undefined ? { createdBefore } : {}),
  };
}

function dateOf(value: string | number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === "number" ? value : /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0)
    throw new BulkActionRefusedError(
      "bulk_filter_invalid",
      `${field} is not a date (ISO-8601 or epoch ms): ${JSON.stringify(value)}`,
      `$.filter.${field}`,
    );
  return ms;
}
