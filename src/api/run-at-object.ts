/**
 * @module Finding a tenant's run at its own object first, for the doors that answer from it (a read
 * of `GET /v1/runs/{id}`, a signal, a cancel): a run object's name is a function of the tenant and
 * the run id, and it is created next to the Worker that started it, while the run index is in D1,
 * one region for every caller (docs/runs.md, "Where a start waits"). The index is asked only when
 * no object has the run: a minted anchor (no object yet), a deleted run (410, its tombstone), or no
 * such run (404).
 */
import { candidatePlacements, unindexedRun } from "../engine/runs/unindexed-run.ts";
import type { RunHandle } from "../ports/run-handle.ts";
import type { RunIndexEntry } from "../ports/run-index.ts";
import { RunDeletedError } from "../sdk/errors/run-deleted-error.ts";
import type { ApiServices } from "./api-env.ts";
import { notFound } from "./api-error.ts";

/** The run's object and an index entry read from its request (`definitionHash` null: callers here don't need it). */
export async function tenantRunAtObject(
  services: ApiServices,
  tenant: string,
  runId: string,
): Promise<{ entry: RunIndexEntry; client: RunHandle }> {
  const found = await unindexedRun(services, tenant, runId);
  if (found) return found;
  const entry = await indexedOnly(services, tenant, runId);
  return { entry, client: services.runHandles.open(tenant, runId, entry.placement) };
}

/** The run's object alone (one read of its first event), for a door that only talks to it. */
export async function tenantRunClient(services: ApiServices, tenant: string, runId: string): Promise<RunHandle> {
  for (const placement of candidatePlacements(services)) {
    const client = services.runHandles.open(tenant, runId, placement);
    const [first] = await client.events({ after: 0, limit: 1 });
    if (first?.type === "RunRequested" && first.payload.tenant === tenant) return client;
  }
  const entry = await indexedOnly(services, tenant, runId);
  return services.runHandles.open(tenant, runId, entry.placement);
}

/** The index row of a run no object has (a minted anchor), else 410 for a deleted run, else 404. */
async function indexedOnly(services: ApiServices, tenant: string, runId: string): Promise<RunIndexEntry> {
  const entry = await services.runs.get(tenant, runId);
  if (entry) return entry;
  // Looked up only here, on the miss path: a deleted run's object holds no events (410, not 404).
  const tombstone = await services.deletions.tombstone(tenant, runId);
  if (tombstone) throw new RunDeletedError(runId, tombstone.deletedAt);
  throw notFound("run", runId);
}
