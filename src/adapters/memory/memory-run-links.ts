import type { RunLink, RunLinks } from "../../ports/run-links.ts";

/** {@link RunLinks} in memory, for unit tests and the in-memory world. */
export class MemoryRunLinks implements RunLinks {
  private readonly links = new Map<string, RunLink>();

  async add(link: RunLink): Promise<void> {
    const key = JSON.stringify([link.tenant, link.sourceRunId, link.runId]);
    if (!this.links.has(key)) this.links.set(key, link);
  }

  async of(tenant: string, sourceRunId: string): Promise<RunLink[]> {
    return [...this.links.values()]
      .filter((l) => l.tenant === tenant && l.sourceRunId === sourceRunId)
      .sort((a, b) => a.createdAt - b.createdAt || (a.runId < b.runId ? -1 : 1));
  }
}
