import type { RunIndex, RunIndexEntry } from "../../src/ports/run-index.ts";

/** The D1 index with its row writes through `upsert` (given the real one), every other call passed through. */
export function indexWithUpsert(
  d1: RunIndex,
  upsert: (entry: RunIndexEntry, real: (entry: RunIndexEntry) => Promise<void>) => Promise<void>,
): RunIndex {
  return {
    upsert: (entry) => upsert(entry, (e) => d1.upsert(e)),
    get: (tenant, id) => d1.get(tenant, id),
    list: (query) => d1.list(query),
    tenantUsesVersion: (tenant, versionId) => d1.tenantUsesVersion(tenant, versionId),
    findAnchor: (id) => d1.findAnchor(id),
    claimAnchor: (tenant, id, at) => d1.claimAnchor(tenant, id, at),
    cancelAnchor: (tenant, id, at) => d1.cancelAnchor(tenant, id, at),
  };
}
