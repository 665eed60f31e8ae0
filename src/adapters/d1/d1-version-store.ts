import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { CompilerLock } from "../../identity/compiler-lock.ts";
import type { WorkflowDefinitionSnapshot } from "../../identity/definition-snapshot.ts";
import type { PlannerManifest } from "../../identity/planner-manifest.ts";
import { versionIdOf, type WorkflowVersion } from "../../identity/workflow-version.ts";
import { CANONICALIZER_ID, canonicalJson } from "../../json/canonical-json.ts";
import { type Digest, digestText } from "../../json/digest.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { VersionIdCollisionError } from "../../sdk/errors/version-id-collision-error.ts";
import { compilerLocks, plannerManifests, workflowDefinitions, workflowVersions } from "./schema.ts";
import { type StoredArtifactKind, StoredArtifactTamperedError } from "./stored-artifact-tampered-error.ts";

/**
 * The D1 adapter of {@link VersionStore}, through drizzle. Hash-keyed writes use
 * `ON CONFLICT DO NOTHING`, so re-registering is a no-op; a version whose `wfver_` id is taken by
 * another full hash is refused ({@link VersionIdCollisionError}), never silently dropped. Every read re-hashes what it read and
 * throws {@link StoredArtifactTamperedError} when a row no longer matches its key: D1 rows can be
 * changed behind the Worker's back (console, `wrangler d1 execute`), and a changed document must
 * never be served or run.
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

  async putDefinitions(entries: readonly { snapshot: WorkflowDefinitionSnapshot; definitionHash: Digest }[], at: number): Promise<void> {
    const [first, ...rest] = entries.map((e) =>
      this.db
        .insert(workflowDefinitions)
        .values({
          definitionHash: e.definitionHash,
          workflowId: e.snapshot.id,
          canonicalizer: CANONICALIZER_ID,
          snapshotJson: canonicalJson(e.snapshot),
          createdAt: at,
        })
        .onConflictDoNothing(),
    );
    if (first) await this.db.batch([first, ...rest]);
  }

  async getDefinition(definitionHash: Digest): Promise<WorkflowDefinitionSnapshot | null> {
    const row = await this.db.select().from(workflowDefinitions).where(eq(workflowDefinitions.definitionHash, definitionHash)).get();
    // Parsed and checked for canonical form only: the hash is the caller's to compare (the
    // definition gate refuses a projection that no longer hashes to its approved hash).
    return row ? verified<WorkflowDefinitionSnapshot>("definition", definitionHash, row.snapshotJson, null) : null;
  }

  async putVersion(version: WorkflowVersion, at: number): Promise<void> {
    await this.refuseCollision(version);
    await this.db.batch([this.versionInsert(version, at), this.versionUsed(version, at)]);
    await this.refuseCollision(version);
  }

  async putLock(lock: CompilerLock, lockHash: Digest, at: number): Promise<void> {
    await this.lockInsert(lock, lockHash, at);
  }

  async registerVersion(entry: {
    version: WorkflowVersion;
    lock: CompilerLock;
    lockHash: Digest;
    manifest?: { manifest: PlannerManifest; hash: Digest; definitionHash: Digest };
    at: number;
  }): Promise<void> {
    // One D1 batch is one transaction: all three rows, or none.
    const { version, lock, lockHash, manifest, at } = entry;
    // Checked before (so a taken id writes no lock) and after (a colliding writer that raced us
    // past the first check won the id: this registration still fails, by name).
    await this.refuseCollision(version);
    const writes = [this.versionInsert(version, at), this.versionUsed(version, at), this.lockInsert(lock, lockHash, at)] as const;
    if (manifest) await this.db.batch([...writes, this.manifestInsert(manifest.manifest, manifest.hash, manifest.definitionHash, at)]);
    else await this.db.batch(writes);
    await this.refuseCollision(version);
  }

  /** Throws when the version's id is stored for a document with another full hash. */
  private async refuseCollision(version: WorkflowVersion): Promise<void> {
    const row = await this.db
      .select({ hash: workflowVersions.hash })
      .from(workflowVersions)
      .where(eq(workflowVersions.id, version.id))
      .get();
    if (row && row.hash !== version.hash) throw new VersionIdCollisionError(version.id, row.hash, version.hash);
  }

  private versionInsert(version: WorkflowVersion, at: number) {
    return this.db
      .insert(workflowVersions)
      .values({
        id: version.id,
        hash: version.hash,
        canonicalizer: version.canonicalizer,
        canonicalJson: version.canonicalJson,
        createdAt: at,
        lastUsedAt: at,
      })
      .onConflictDoNothing();
  }

  /**
   * Marks the stored version as just registered (its document is left as it is): a version nothing
   * references is deleted only when this is older than the grace period (d1-unused-versions.ts).
   */
  private versionUsed(version: WorkflowVersion, at: number) {
    return this.db
      .update(workflowVersions)
      .set({ lastUsedAt: at })
      .where(and(eq(workflowVersions.id, version.id), eq(workflowVersions.hash, version.hash)));
  }

  private lockInsert(lock: CompilerLock, lockHash: Digest, at: number) {
    return this.db
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

  private manifestInsert(manifest: PlannerManifest, manifestHash: Digest, definitionHash: Digest, at: number) {
    return this.db
      .insert(plannerManifests)
      .values({ manifestHash, definitionHash, manifestJson: canonicalJson(manifest), createdAt: at })
      .onConflictDoNothing();
  }

  async getVersionByHash(hash: Digest): Promise<WorkflowVersion | null> {
    const row = await this.db.select().from(workflowVersions).where(eq(workflowVersions.hash, hash)).get();
    return row ? verifiedVersion(row, hash) : null;
  }

  async getVersionById(versionId: string): Promise<WorkflowVersion | null> {
    const row = await this.db.select().from(workflowVersions).where(eq(workflowVersions.id, versionId)).get();
    if (!row) return null;
    if (row.id !== versionId) throw new StoredArtifactTamperedError("version", versionId, "it is stored under another id");
    return verifiedVersion(row, row.hash as Digest);
  }

  async getLock(lockHash: Digest): Promise<CompilerLock | null> {
    const row = await this.db.select().from(compilerLocks).where(eq(compilerLocks.lockHash, lockHash)).get();
    return row ? verifiedLock(row) : null;
  }

  async locksOf(versionId: string): Promise<{ lockHash: Digest; definitionHash: Digest; lock: CompilerLock }[]> {
    const rows = await this.db
      .select()
      .from(compilerLocks)
      .where(eq(compilerLocks.versionId, versionId))
      .orderBy(compilerLocks.createdAt)
      .all();
    return rows.map((r) => ({ lockHash: r.lockHash as Digest, definitionHash: r.definitionHash as Digest, lock: verifiedLock(r) }));
  }

  async putPlannerManifest(manifest: PlannerManifest, manifestHash: Digest, definitionHash: Digest, at: number): Promise<void> {
    await this.manifestInsert(manifest, manifestHash, definitionHash, at);
  }

  async getPlannerManifest(manifestHash: Digest): Promise<PlannerManifest | null> {
    const row = await this.db.select().from(plannerManifests).where(eq(plannerManifests.manifestHash, manifestHash)).get();
    return row ? verified<PlannerManifest>("planner_manifest", manifestHash, row.manifestJson, manifestHash) : null;
  }
}

/**
 * A stored version whose text is the canonical JSON that hashes to `hash` (the full hash asked
 * for, or the row's own), and whose id is that hash's display id. The text itself is served, so it
 * must be the canonical bytes, not merely an equal document.
 */
function verifiedVersion(row: { id: string; hash: string; canonicalJson: string }, hash: Digest): WorkflowVersion {
  if (row.hash !== hash || digestText(row.canonicalJson) !== hash || versionIdOf(hash) !== row.id)
    throw new StoredArtifactTamperedError("version", hash, "its text no longer hashes to its full hash and id");
  return {
    id: row.id as WorkflowVersion["id"],
    hash,
    canonicalizer: CANONICALIZER_ID,
    canonicalJson: row.canonicalJson,
    lwir: verified("version", hash, row.canonicalJson, hash),
  };
}

/** A stored lock that still hashes to its key and agrees with the columns it is indexed by. */
function verifiedLock(row: { lockHash: string; versionId: string; definitionHash: string; lockJson: string }): CompilerLock {
  const lock = verified<CompilerLock>("lock", row.lockHash, row.lockJson, row.lockHash as Digest);
  if (lock.workflowVersionId !== row.versionId || lock.workflowDefinitionHash !== row.definitionHash)
    throw new StoredArtifactTamperedError("lock", row.lockHash, "its version or definition columns no longer match it");
  return lock;
}

/**
 * Parses a stored document and checks it is still the canonical text that hashes to its key.
 * Documents are written as canonical JSON, so any other spelling (even of an equal document) is a change.
 */
function verified<T>(kind: StoredArtifactKind, key: string, text: string, expected: Digest | null): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StoredArtifactTamperedError(kind, key, "it is no longer JSON");
  }
  let canonical: string;
  try {
    canonical = canonicalJson(parsed);
  } catch {
    throw new StoredArtifactTamperedError(kind, key, "it can no longer be canonicalized");
  }
  if (canonical !== text) throw new StoredArtifactTamperedError(kind, key, "it is no longer in canonical form");
  const actual = digestText(text);
  if (expected !== null && actual !== expected) throw new StoredArtifactTamperedError(kind, key, `it hashes to ${actual}`);
  return parsed as T;
}
