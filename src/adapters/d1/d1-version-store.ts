import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { CANONICALIZER_ID, canonicalJson } from "../../identity/canonical-json.ts";
import type { CompilerLock } from "../../identity/compiler-lock.ts";
import type { WorkflowDefinitionSnapshot } from "../../identity/definition-snapshot.ts";
import type { Digest } from "../../identity/digest.ts";
import type { PlannerManifest } from "../../identity/planner-manifest.ts";
import type { WorkflowVersion } from "../../identity/workflow-version.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { compilerLocks, plannerManifests, workflowDefinitions, workflowVersions } from "./schema.ts";

/**
 * The D1 adapter of {@link VersionStore}, through drizzle. Hash-keyed writes use
 * `ON CONFLICT DO NOTHING`, so re-registering is a no-op.
 */
export class D1VersionStore implements VersionStore {
  private readonly db;

  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async putDefinition(snapshot: WorkflowDefinitionSnapshot, definitionHash: Digest, at: number): Promise<void> {
    await this.db
      .insert(workflowDefinitions)
      .values({
        definitionHash,
        workflowId: snapshot.id,
        canonicalizer: CANONICALIZER_ID,
        snapshotJson: canonicalJson(snapshot),
        createdAt: at,
      })
      .onConflictDoNothing();
  }

  async getDefinition(definitionHash: Digest): Promise<WorkflowDefinitionSnapshot | null> {
    const row = await this.db.select().from(workflowDefinitions).where(eq(workflowDefinitions.definitionHash, definitionHash)).get();
    return row ? (JSON.parse(row.snapshotJson) as WorkflowDefinitionSnapshot) : null;
  }

  async putVersion(version: WorkflowVersion, at: number): Promise<void> {
    await this.db
      .insert(workflowVersions)
      .values({
        id: version.id,
        hash: version.hash,
        canonicalizer: version.canonicalizer,
        canonicalJson: version.canonicalJson,
        createdAt: at,
      })
      .onConflictDoNothing();
  }

  async putLock(lock: CompilerLock, lockHash: Digest, at: number): Promise<void> {
    await this.db
      .insert(compilerLocks)
      .values({
        lockHash,
        versionId: lock.workflowVersionId,
        definitionHash: lock.workflowDefinitionHash,
        lockJson: canonicalJson(lock),
        createdAt: at,
      })
      .onConflictDoNothing();
  }

  async getVersion(versionId: string): Promise<WorkflowVersion | null> {
    const row = await this.db.select().from(workflowVersions).where(eq(workflowVersions.id, versionId)).get();
    if (!row) return null;
    return {
      id: row.id as WorkflowVersion["id"],
      hash: row.hash as Digest,
      canonicalizer: CANONICALIZER_ID,
      canonicalJson: row.canonicalJson,
      lwir: JSON.parse(row.canonicalJson),
    };
  }

  async getLock(lockHash: Digest): Promise<CompilerLock | null> {
    const row = await this.db.select().from(compilerLocks).where(eq(compilerLocks.lockHash, lockHash)).get();
    return row ? (JSON.parse(row.lockJson) as CompilerLock) : null;
  }

  async locksOf(versionId: string): Promise<{ lockHash: Digest; definitionHash: Digest; lock: CompilerLock }[]> {
    const rows = await this.db
      .select()
      .from(compilerLocks)
      .where(eq(compilerLocks.versionId, versionId))
      .orderBy(compilerLocks.createdAt)
      .all();
    return rows.map((r) => ({
      lockHash: r.lockHash as Digest,
      definitionHash: r.definitionHash as Digest,
      lock: JSON.parse(r.lockJson) as CompilerLock,
    }));
  }

  async putPlannerManifest(manifest: PlannerManifest, manifestHash: Digest, definitionHash: Digest, at: number): Promise<void> {
    await this.db
      .insert(plannerManifests)
      .values({ manifestHash, definitionHash, manifestJson: canonicalJson(manifest), createdAt: at })
      .onConflictDoNothing();
  }

  async getPlannerManifest(manifestHash: Digest): Promise<PlannerManifest | null> {
    const row = await this.db.select().from(plannerManifests).where(eq(plannerManifests.manifestHash, manifestHash)).get();
    return row ? (JSON.parse(row.manifestJson) as PlannerManifest) : null;
  }
}
