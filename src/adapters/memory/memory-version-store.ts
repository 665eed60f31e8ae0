import type { CompilerLock } from "../../identity/compiler-lock.ts";
import type { WorkflowDefinitionSnapshot } from "../../identity/definition-snapshot.ts";
import type { PlannerManifest } from "../../identity/planner-manifest.ts";
import type { WorkflowVersion } from "../../identity/workflow-version.ts";
import { canonicalJson } from "../../json/canonical-json.ts";
import type { Digest } from "../../json/digest.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { VersionIdCollisionError } from "../../sdk/errors/version-id-collision-error.ts";

/**
 * In-memory {@link VersionStore} for unit tests and the in-memory world. Stores canonical JSON
 * text, like D1, so readers get copies and never share objects with writers.
 */
export class MemoryVersionStore implements VersionStore {
  private readonly definitions = new Map<string, string>();
  private readonly versions = new Map<string, { hash: Digest; json: string }>();
  private readonly versionIdByHash = new Map<string, string>();
  private readonly locks = new Map<string, string>();
  private readonly manifests = new Map<string, string>();

  async putDefinition(snapshot: WorkflowDefinitionSnapshot, definitionHash: Digest): Promise<void> {
    if (!this.definitions.has(definitionHash)) this.definitions.set(definitionHash, canonicalJson(snapshot));
  }
  async putDefinitions(entries: readonly { snapshot: WorkflowDefinitionSnapshot; definitionHash: Digest }[]): Promise<void> {
    for (const e of entries) await this.putDefinition(e.snapshot, e.definitionHash);
  }
  async getDefinition(definitionHash: Digest): Promise<WorkflowDefinitionSnapshot | null> {
    const json = this.definitions.get(definitionHash);
    return json ? (JSON.parse(json) as WorkflowDefinitionSnapshot) : null;
  }
  async putVersion(version: WorkflowVersion): Promise<void> {
    const taken = this.versions.get(version.id);
    if (taken && taken.hash !== version.hash) throw new VersionIdCollisionError(version.id, taken.hash, version.hash);
    if (taken || this.versionIdByHash.has(version.hash)) return;
    this.versions.set(version.id, { hash: version.hash, json: version.canonicalJson });
    this.versionIdByHash.set(version.hash, version.id);
  }
  async putLock(lock: CompilerLock, lockHash: Digest): Promise<void> {
    if (!this.locks.has(lockHash)) this.locks.set(lockHash, canonicalJson(lock));
  }
  async getVersionByHash(hash: Digest): Promise<WorkflowVersion | null> {
    const id = this.versionIdByHash.get(hash);
    return id === undefined ? null : this.getVersionById(id);
  }
  async getVersionById(versionId: string): Promise<WorkflowVersion | null> {
    const row = this.versions.get(versionId);
    if (!row) return null;
    return {
      id: versionId as WorkflowVersion["id"],
      hash: row.hash,
      canonicalizer: "little-workflow-canonical-json@alpha",
      canonicalJson: row.json,
      lwir: JSON.parse(row.json),
    };
  }
  async getLock(lockHash: Digest): Promise<CompilerLock | null> {
    const json = this.locks.get(lockHash);
    return json ? (JSON.parse(json) as CompilerLock) : null;
  }
  async locksOf(versionId: string): Promise<{ lockHash: Digest; definitionHash: Digest; lock: CompilerLock }[]> {
    return [...this.locks.entries()]
      .map(([lockHash, json]) => ({ lockHash: lockHash as Digest, lock: JSON.parse(json) as CompilerLock }))
      .filter((l) => l.lock.workflowVersionId === versionId)
      .map((l) => ({ ...l, definitionHash: l.lock.workflowDefinitionHash }));
  }

  async putPlannerManifest(manifest: PlannerManifest, manifestHash: Digest): Promise<void> {
    if (!this.manifests.has(manifestHash)) this.manifests.set(manifestHash, canonicalJson(manifest));
  }
  async getPlannerManifest(manifestHash: Digest): Promise<PlannerManifest | null> {
    const json = this.manifests.get(manifestHash);
    return json ? (JSON.parse(json) as PlannerManifest) : null;
  }

  async registerVersion(entry: {
    version: WorkflowVersion;
    lock: CompilerLock;
    lockHash: Digest;
    manifest?: { manifest: PlannerManifest; hash: Digest; definitionHash: Digest };
    at: number;
  }): Promise<void> {
    // Nothing can interleave in memory, so the three writes are atomic (a collision throws before any).
    await this.putVersion(entry.version);
    await this.putLock(entry.lock, entry.lockHash);
    if (entry.manifest) await this.putPlannerManifest(entry.manifest.manifest, entry.manifest.hash);
  }
}
