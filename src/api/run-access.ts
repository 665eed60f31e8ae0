import { unindexedRun } from "../engine/runs/unindexed-run.ts";
import type { RunHandle } from "../ports/run-handle.ts";
import type { RunIndexEntry } from "../ports/run-index.ts";
import { RunDeletedError } from "../sdk/errors/run-deleted-error.ts";
import type { ApiServices } from "./api-env.ts";
import { notFound } from "./api-error.ts";

/**
 * Finds a tenant's run: the index row says where its object lives; a run started a moment ago
 * whose row has not landed yet is found at its object ({@link unindexedRun}). Another tenant's run
 * id is simply not found (404, never 403), since run ids are per tenant.
 */
export async function tenantRun(
  services: ApiServices,
  tenant: string,
  runId: string,
): Promise<{ entry: RunIndexEntry; client: RunHandle }> {
  const entry = await services.runs.get(tenant, runId);
  if (entry) return { entry, client: services.runHandles.open(tenant, runId, entry.placement) };
  const unindexed = await unindexedRun(services, tenant, runId);
  if (unindexed) return unindexed;
  // Looked up only here, on the miss path: a deleted run has no index row (410, not 404).
  const tombstone = await services.deletions.tombstone(tenant, runId);
  if (tombstone) throw new RunDeletedError(runId, tombstone.deletedAt);
  throw notFound("run", runId);
}

/** Links a client follows from a run. */
export function runLinks(origin: string, runId: string) {
  const self = `${origin}/v1/runs/${encodeURIComponent(runId)}`;
  return { self, events: `${self}/events`, stream: `${self}/events/stream` };
}
