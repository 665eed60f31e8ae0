import { and, asc, desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { versionIdOf } from "../../identity/workflow-version.ts";
import { CANONICALIZER_ID, canonicalJson } from "../../json/canonical-json.ts";
import { type Digest, isDigest } from "../../json/digest.ts";
import type {
  ApprovalAuditEntry,
  ApproveRequest,
  DefinitionApproval,
  DefinitionApprovals,
  PinnedVersion,
} from "../../ports/definition-approvals.ts";
import { definitionApprovalAudit, definitionApprovals } from "./schema.ts";

type Row = typeof definitionApprovals.$inferSelect;

/**
 * The D1 adapter of {@link DefinitionApprovals}. An approval, the projection it freezes and its
 * audit row are one D1 batch (one transaction); so are a revocation and its audit row.
 */
export class D1DefinitionApprovals implements DefinitionApprovals {
  private readonly db;
  private readonly database: D1Database;

  constructor(database: D1Database) {
    this.database = database;
    this.db = drizzle(database);
  }

  async approve(entry: ApproveRequest): Promise<DefinitionApproval> {
    const d = this.database;
    const statements: D1PreparedStatement[] = [];
    if (entry.projection)
      statements.push(
        d
          .prepare(
            "INSERT INTO workflow_definitions (definition_hash, workflow_id, canonicalizer, snapshot_json, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
          )
          .bind(entry.definitionHash, entry.projection.id, CANONICALIZER_ID, canonicalJson(entry.projection), entry.at),
      );
    statements.push(
      d
        .prepare(
          "INSERT INTO definition_approvals (tenant, definition_hash, workflow_id, approved_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        )
        .bind(entry.tenant, entry.definitionHash, entry.workflowId, entry.at),
      // Audited only when the row above was inserted: approving again changes nothing.
      d
        .prepare(
          "INSERT INTO definition_approval_audit (tenant, definition_hash, workflow_id, action, by, at) SELECT ?, ?, ?, 'approved', ?, ? WHERE changes() = 1",
        )
        .bind(entry.tenant, entry.definitionHash, entry.workflowId, entry.by ?? null, entry.at),
    );
    await d.batch(statements);
    return (await this.get(entry.tenant, entry.definitionHash)) as DefinitionApproval;
  }

  async revoke(entry: { tenant: string; definitionHash: Digest; at: number; by?: string | null }): Promise<DefinitionApproval | null> {
    const before = await this.get(entry.tenant, entry.definitionHash);
    if (!before) return null;
    const d = this.database;
    const [, deleted] = await d.batch([
      d
        .prepare(
          "INSERT INTO definition_approval_audit (tenant, definition_hash, workflow_id, action, by, at) SELECT tenant, definition_hash, workflow_id, 'revoked', ?, ? FROM definition_approvals WHERE tenant = ? AND definition_hash = ?",
        )
        .bind(entry.by ?? null, entry.at, entry.tenant, entry.definitionHash),
      d.prepare("DELETE FROM definition_approvals WHERE tenant = ? AND definition_hash = ?").bind(entry.tenant, entry.definitionHash),
    ]);
    // A concurrent revocation deleted it first: that one is the revocation (and its audit row).
    return (deleted?.meta.changes ?? 0) > 0 ? before : null;
  }

  async audit(tenant: string, definitionHash: Digest): Promise<ApprovalAuditEntry[]> {
    const rows = await this.db
      .select()
      .from(definitionApprovalAudit)
      .where(and(eq(definitionApprovalAudit.tenant, tenant), eq(definitionApprovalAudit.definitionHash, definitionHash)))
      .orderBy(asc(definitionApprovalAudit.id))
      .all();
    return rows.map((r) => ({ action: r.action as ApprovalAuditEntry["action"], workflowId: r.workflowId, at: r.at, by: r.by ?? null }));
  }

  /** Read on every start (the definition gate): one static statement, not a query built per call. */
  async get(tenant: string, definitionHash: Digest): Promise<DefinitionApproval | null> {
    const row = await this.database
      .prepare(
        `SELECT tenant, definition_hash AS definitionHash, workflow_id AS workflowId, approved_at AS approvedAt,
           pinned_version_id AS pinnedVersionId, pinned_at AS pinnedAt
         FROM definition_approvals WHERE tenant = ?1 AND definition_hash = ?2`,
      )
      .bind(tenant, definitionHash)
      .first<Row>();
    return row ? toApproval(row) : null;
  }

  async pin(tenant: string, definitionHash: Digest, version: PinnedVersion | null, at: number): Promise<boolean> {
    const result = await this.db
      .update(definitionApprovals)
      // The full hash is what is stored: the display id derives from it, and runs look up the hash.
      .set({ pinnedVersionId: version?.hash ?? null, pinnedAt: version === null ? null : at })
      .where(and(eq(definitionApprovals.tenant, tenant), eq(definitionApprovals.definitionHash, definitionHash)))
      .run();
    return result.meta.changes > 0;
  }

  async ofWorkflow(tenant: string, workflowId: string): Promise<DefinitionApproval[]> {
    const rows = await this.db
      .select()
      .from(definitionApprovals)
      .where(and(eq(definitionApprovals.tenant, tenant), eq(definitionApprovals.workflowId, workflowId)))
      .orderBy(desc(definitionApprovals.approvedAt))
      .all();
    return rows.map(toApproval);
  }
}

function toApproval(row: Row): DefinitionApproval {
  return {
    tenant: row.tenant,
    definitionHash: row.definitionHash as Digest,
    workflowId: row.workflowId,
    approvedAt: row.approvedAt,
    ...pinnedOf(row.pinnedVersionId ?? null),
    pinnedAt: row.pinnedAt ?? null,
  };
}

/** A stored pin: a full hash (its display id derived), or a `wfver_` id from before pins held the hash. */
function pinnedOf(stored: string | null): Pick<DefinitionApproval, "pinnedVersionId" | "pinnedVersionHash"> {
  if (stored === null) return { pinnedVersionId: null, pinnedVersionHash: null };
  if (isDigest(stored)) return { pinnedVersionId: versionIdOf(stored), pinnedVersionHash: stored };
  return { pinnedVersionId: stored, pinnedVersionHash: null };
}
