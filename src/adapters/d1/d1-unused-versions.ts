import type { UnusedVersions } from "../../ports/unused-versions.ts";

/**
 * Whether the version row `workflow_versions` is unused: no run in the index names it (any tenant),
 * no approval pins it (by full hash, or by `wfver_` id for pins made before hashes), and no run
 * registered it since the bound parameter. Every table of the schema that points at a version is
 * here; compiler locks belong to their version and go with it.
 */
const UNUSED = `COALESCE(workflow_versions.last_used_at, workflow_versions.created_at) < ?
  AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.version_id = workflow_versions.id)
  AND NOT EXISTS (SELECT 1 FROM definition_approvals
    WHERE definition_approvals.pinned_version_id IN (workflow_versions.id, workflow_versions.hash))`;

/** Ids per statement: SQLite's bound-parameter limit is far above it. */
const CHUNK = 50;

/** The D1 adapter of {@link UnusedVersions}: each check and its deletes are one D1 batch (one transaction). */
export class D1UnusedVersions implements UnusedVersions {
  private readonly db: D1Database;

  constructor(db: D1Database) {
    this.db = db;
  }

  async collect(versionIds: readonly string[], usedBefore: number): Promise<string[]> {
    const ids = [...new Set(versionIds)];
    const deleted: string[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const chosen = `SELECT id FROM workflow_versions WHERE id IN (${chunk.map(() => "?").join(", ")}) AND ${UNUSED}`;
      deleted.push(...(await this.deleteChosen(chosen, [...chunk, usedBefore])));
    }
    return deleted;
  }

  async sweep(usedBefore: number, limit: number): Promise<string[]> {
    // Ordered, so the locks' statement and the versions' statement choose the same rows.
    return this.deleteChosen(`SELECT id FROM workflow_versions WHERE ${UNUSED} ORDER BY id LIMIT ?`, [usedBefore, limit]);
  }

  /** Deletes the chosen versions' locks, then the versions, re-checking in the same transaction. */
  private async deleteChosen(chosen: string, params: readonly unknown[]): Promise<string[]> {
    const [, versions] = await this.db.batch<{ id: string }>([
      this.db.prepare(`DELETE FROM compiler_locks WHERE version_id IN (${chosen})`).bind(...params),
      this.db.prepare(`DELETE FROM workflow_versions WHERE id IN (${chosen}) RETURNING id`).bind(...params),
    ]);
    return (versions?.results ?? []).map((row) => row.id);
  }
}
