import type { Digest } from "../../json/digest.ts";
import type {
  ApprovalAuditEntry,
  ApproveRequest,
  DefinitionApproval,
  DefinitionApprovals,
  PinnedVersion,
} from "../../ports/definition-approvals.ts";
import type { VersionStore } from "../../ports/version-store.ts";

/**
 * In-memory {@link DefinitionApprovals} for unit tests and the in-memory world. Given the version
 * store, an approval writes the projection it freezes there (nothing can interleave: one turn).
 */
export class MemoryDefinitionApprovals implements DefinitionApprovals {
  private readonly rows = new Map<string, DefinitionApproval>();
  private readonly log: (ApprovalAuditEntry & { key: string })[] = [];

  private readonly versions: VersionStore | undefined;

  constructor(versions?: VersionStore) {
    this.versions = versions;
  }

  async approve(entry: ApproveRequest): Promise<DefinitionApproval> {
    const key = `${entry.tenant}\u0000${entry.definitionHash}`;
    if (entry.projection) await this.versions?.putDefinition(entry.projection, entry.definitionHash, entry.at);
    const existing = this.rows.get(key);
    if (existing) return { ...existing };
    this.log.push({ key, action: "approved", workflowId: entry.workflowId, at: entry.at, by: entry.by ?? null });
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

  async revoke(entry: { tenant: string; definitionHash: Digest; at: number; by?: string | null }): Promise<DefinitionApproval | null> {
    const key = `${entry.tenant}\u0000${entry.definitionHash}`;
    const row = this.rows.get(key);
    if (!row) return null;
    this.rows.delete(key);
    this.log.push({ key, action: "revoked", workflowId: row.workflowId, at: entry.at, by: entry.by ?? null });
    return { ...row };
  }

  async audit(tenant: string, definitionHash: Digest): Promise<ApprovalAuditEntry[]> {
    const key = `${tenant}\u0000${definitionHash}`;
    return this.log.filter((e) => e.key === key).map(({ key: _key, ...e }) => e);
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
