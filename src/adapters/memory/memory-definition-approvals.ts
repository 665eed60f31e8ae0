import type { Digest } from "../../identity/digest.ts";
import type { DefinitionApproval, DefinitionApprovals, PinnedVersion } from "../../ports/definition-approvals.ts";

/** In-memory {@link DefinitionApprovals} for unit tests and the in-memory world. */
export class MemoryDefinitionApprovals implements DefinitionApprovals {
  private readonly rows = new Map<string, DefinitionApproval>();

  async approve(entry: { tenant: string; definitionHash: Digest; workflowId: string; at: number }): Promise<DefinitionApproval> {
    const key = `${entry.tenant}\u0000${entry.definitionHash}`;
    const existing = this.rows.get(key);
    if (existing) return { ...existing };
    const row: DefinitionApproval = {
      tenant: entry.tenant,
      definitionHash: entry.definitionHash,
      workflowId: entry.workflowId,
      approvedAt: entry.at,
      pinnedVersionId: null,
      pinnedVersionHash: null,
      pinnedAt: null,
    };
    this.rows.set(key, row);
    return { ...row };
  }

  async get(tenant: string, definitionHash: Digest): Promise<DefinitionApproval | null> {
    const row = this.rows.get(`${tenant}\u0000${definitionHash}`);
    return row ? { ...row } : null;
  }

  async pin(tenant: string, definitionHash: Digest, version: PinnedVersion | null, at: number): Promise<boolean> {
    const key = `${tenant}\u0000${definitionHash}`;
    const row = this.rows.get(key);
    if (!row) return false;
    this.rows.set(key, {
      ...row,
      pinnedVersionId: version?.id ?? null,
      pinnedVersionHash: version?.hash ?? null,
      pinnedAt: version === null ? null : at,
    });
    return true;
  }

  async ofWorkflow(tenant: string, workflowId: string): Promise<DefinitionApproval[]> {
    return [...this.rows.values()]
      .filter((r) => r.tenant === tenant && r.workflowId === workflowId)
      .sort((a, b) => b.approvedAt - a.approvedAt)
      .map((r) => ({ ...r }));
  }
}
