import { RUN_STATUS_RANK, type RunStatus } from "../../ports/run-events.ts";
import type { RunIndex, RunIndexEntry, RunQuery } from "../../ports/run-index.ts";

/** In-memory {@link RunIndex} for unit tests and the in-memory world. */
export class MemoryRunIndex implements RunIndex {
  private readonly rows = new Map<string, RunIndexEntry>();

  async upsert(entry: RunIndexEntry): Promise<void> {
    const key = `${entry.tenant}\u0000${entry.runId}`;
    const prior = this.rows.get(key);
    if (!prior) {
      this.rows.set(key, { ...entry, waitReason: entry.status === "waiting" ? (entry.waitReason ?? null) : null });
      return;
    }
    if (RUN_STATUS_RANK[prior.status] > RUN_STATUS_RANK[entry.status]) return;
    this.rows.set(key, {
      ...prior,
      status: entry.status,
      waitReason: entry.status === "waiting" ? (entry.waitReason ?? null) : null,
      definitionHash: entry.definitionHash ?? prior.definitionHash,
      versionId: entry.versionId ?? prior.versionId,
      causeCode: entry.causeCode,
      updatedAt: entry.updatedAt,
      ...(entry.progress ? { progress: entry.progress } : {}),
    });
  }

  async get(tenant: string, runId: string): Promise<RunIndexEntry | null> {
    const row = this.rows.get(`${tenant}\u0000${runId}`);
    return row ? { ...row } : null;
  }

  async list(query: RunQuery): Promise<RunIndexEntry[]> {
    const before = query.before;
    return [...this.rows.values()]
      .filter(
        (r) =>
          r.tenant === query.tenant &&
          (!query.workflowId || r.workflowId === query.workflowId) &&
          (!query.status || r.status === query.status) &&
          (!query.waitReason || (r.status === "waiting" && r.waitReason === query.waitReason)) &&
          (query.tags ?? []).every(({ key, value }) => r.tags?.[key] === value),
      )
      .filter((r) => !before || r.createdAt < before.createdAt || (r.createdAt === before.createdAt && r.runId < before.runId))
      .sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0))
      .slice(0, query.limit)
      .map((r) => ({ ...r }));
  }

  async findAnchor(runId: string): Promise<RunIndexEntry | null> {
    const row = [...this.rows.values()].find((r) => r.runId === runId && r.status === "minted");
    return row ? { ...row } : null;
  }

  async claimAnchor(tenant: string, runId: string, at: number): Promise<boolean> {
    return this.moveAnchor(tenant, runId, "pending", at);
  }

  async cancelAnchor(tenant: string, runId: string, at: number): Promise<boolean> {
    return this.moveAnchor(tenant, runId, "cancelled", at);
  }

  private moveAnchor(tenant: string, runId: string, status: RunStatus, at: number): boolean {
    const key = `${tenant}\u0000${runId}`;
    const row = this.rows.get(key);
    if (row?.status !== "minted") return false;
    this.rows.set(key, { ...row, status, updatedAt: at });
    return true;
  }

  async tenantUsesVersion(tenant: string, versionId: string): Promise<boolean> {
    return [...this.rows.values()].some((r) => r.tenant === tenant && r.versionId === versionId);
  }
}
