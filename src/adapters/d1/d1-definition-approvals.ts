import { and, desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { type Digest, isDigest } from "../../identity/digest.ts";
import { versionIdOf } from "../../identity/workflow-version.ts";
import type { DefinitionApproval, DefinitionApprovals, PinnedVersion } from "../../ports/definition-approvals.ts";
import { definitionApprovals } from "./schema.ts";

type Row = typeof definitionApprovals.$inferSelect;

/** The D1 adapter of {@link DefinitionApprovals}. */
export class D1DefinitionApprovals implements DefinitionApprovals {
  private readonly db;

  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async approve(entry: { tenant: string; definitionHash: Digest; workflowId: string; at: number }): Promise<DefinitionApproval> {
    await this.db
      .insert(definitionApprovals)
      .values({ tenant: entry.tenant, definitionHash: entry.definitionHash, workflowId: entry.workflowId, approvedAt: entry.at })
      .onConflictDoNothing();
    return (await this.get(entry.tenant, entry.definitionHash)) as DefinitionApproval;
  }

  async get(tenant: string, definitionHash: Digest): Promise<DefinitionApproval | null> {
    const row = await this.db
      .select()
      .from(definitionApprovals)
      .where(and(eq(definitionApprovals.tenant, tenant), eq(definitionApprovals.definitionHash, definitionHash)))
      .get();
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
