/**
 * @module The one way every door finds a tenant's run (reads, signals, cancels, triggers, approvals,
 * pauses, sections, deletion): at its own object first. A run object's name is a function of the
 * tenant and the run id, and it lives next to the Worker that started it, while the run index is D1,
 * one region for every caller (docs/runs.md, "Where a start waits"): a live run is found with no D1
 * round trip. The index is asked only for what no object can say (a minted anchor has no object
 * yet), then the tombstones (a deleted run is 410 `run_deleted`), else 404 `run_not_found`.
 */
import type { RunDeletions } from "../../ports/run-deletions.ts";
import type { RunHandle, RunHandles } from "../../ports/run-handle.ts";
import type { RunIndex, RunIndexEntry, RunPlacement } from "../../ports/run-index.ts";
import { RunDeletedError } from "../../sdk/errors/run-deleted-error.ts";
import { RunNotFoundError } from "../../sdk/errors/run-not-found-error.ts";
import type { WorkflowCatalog } from "../run-environment.ts";

/** Where runs are looked for: their objects (in the jurisdictions the served workflows name), the index, the tombstones. */
export type RunLookupPorts = {
  readonly runHandles: RunHandles;
  readonly workflows: WorkflowCatalog;
  readonly runs: Pick<RunIndex, "get">;
  readonly deletions: Pick<RunDeletions, "tombstone">;
};

/** A tenant's run, found. */
export type TenantRun = {
  readonly client: RunHandle;
  readonly workflowId: string;
  /** Where its object lives (the start's placement). */
  readonly placement: RunPlacement;
  /**
   * Its index row, read only when the index had to be asked: no object holds the run (a minted
   * anchor), or the caller needs what only the row keeps (`indexRow`: the definition hash a section
   * locked). Null otherwise, and for a run whose row has not landed yet (written after the start's answer).
   */
  readonly entry: RunIndexEntry | null;
};

/**
 * Finds a tenant's run: its object, then the index, then the tombstones. Another tenant's run id
 * is not found (404, never 403): run ids are per tenant, and the object of `(tenant, runId)` is
 * another tenant's object.
 */
export async function findTenantRun(
  ports: RunLookupPorts,
  tenant: string,
  runId: string,
  options: { readonly indexRow?: boolean } = {},
): Promise<TenantRun> {
  const atObject = await runAtObject(ports, tenant, runId);
  if (atObject) return options.indexRow ? { ...atObject, entry: await ports.runs.get(tenant, runId) } : atObject;
  const entry = await ports.runs.get(tenant, runId);
  if (entry)
    return {
      client: ports.runHandles.open(tenant, runId, entry.placement),
      workflowId: entry.workflowId,
      placement: entry.placement,
      entry,
    };
  return missingRun(ports, tenant, runId);
}

/**
 * The miss path of every lookup: 410 `run_deleted` for a run that was deleted (its object and rows
 * are gone, its tombstone stays), else 404 `run_not_found`. The tombstone is read only here.
 */
export async function missingRun(ports: Pick<RunLookupPorts, "deletions">, tenant: string, runId: string): Promise<never> {
  const tombstone = await ports.deletions.tombstone(tenant, runId);
  if (tombstone) throw new RunDeletedError(runId, tombstone.deletedAt);
  throw new RunNotFoundError(runId);
}

/**
 * The run at its object: one read of its first event, which must be this tenant's request. Only
 * the jurisdiction (the namespace) of an object is not a function of its name, so each one a
 * served workflow names is tried when jurisdictions are enforced.
 */
async function runAtObject(ports: RunLookupPorts, tenant: string, runId: string): Promise<TenantRun | null> {
  for (const placement of candidatePlacements(ports)) {
    const client = ports.runHandles.open(tenant, runId, placement);
    const [first] = await client.events({ after: 0, limit: 1 });
    if (first?.type !== "RunRequested" || first.payload.tenant !== tenant) continue;
    return { client, workflowId: first.payload.workflowId, placement: first.payload.placement ?? placement, entry: null };
  }
  return null;
}

/** Where a run object may live: the plain namespace, then each jurisdiction a served workflow names. */
function candidatePlacements(ports: RunLookupPorts): RunPlacement[] {
  if (!ports.runHandles.jurisdictionsEnforced()) return [{}];
  const jurisdictions = new Set<string>();
  for (const id of ports.workflows.ids()) {
    const jurisdiction = ports.workflows.get(id)?.definition.placement.jurisdiction;
    if (jurisdiction) jurisdictions.add(jurisdiction);
  }
  return [{}, ...[...jurisdictions].map((jurisdiction) => ({ jurisdiction }))];
}
