import type { CompilerLock } from "../identity/compiler-lock.ts";
import type { WorkflowDefinitionSnapshot } from "../identity/definition-snapshot.ts";
import type { PlannerManifest } from "../identity/planner-manifest.ts";
import type { WorkflowVersion } from "../identity/workflow-version.ts";
import type { Digest } from "../json/digest.ts";

/**
 * Where compiled artifacts live (D1 in production, memory in unit tests). Every write keyed by a
 * hash is idempotent: writing the same key twice keeps the first row and succeeds.
 *
 * Versions are kept and run by their full `sha256:` hash. Their `wfver_` id (64 bits of it) is a
 * display name: writing a version whose id is taken by a document with another full hash throws
 * `VersionIdCollisionError` (`version_id_collision`) instead of keeping the first writer's
 * document under that name.
 */
export interface VersionStore {
  putDefinition(snapshot: WorkflowDefinitionSnapshot, definitionHash: Digest, at: number): Promise<void>;
  /** Several projections in one write (one D1 batch): what a Worker records of its live definitions. */
  putDefinitions(entries: readonly { snapshot: WorkflowDefinitionSnapshot; definitionHash: Digest }[], at: number): Promise<void>;
  getDefinition(definitionHash: Digest): Promise<WorkflowDefinitionSnapshot | null>;
  putVersion(version: WorkflowVersion, at: number): Promise<void>;
  putLock(lock: CompilerLock, lockHash: Digest, at: number): Promise<void>;
  /** The version with exactly this hash; what pinned runs execute. Reads re-hash the stored text. */
  getVersionByHash(hash: Digest): Promise<WorkflowVersion | null>;
  /** The version a `wfver_` display id names (one at most: colliding ids are refused on write). */
  getVersionById(versionId: string): Promise<WorkflowVersion | null>;
  getLock(lockHash: Digest): Promise<CompilerLock | null>;
  /** Every lock registered for a version (one per definition it was compiled against). */
  locksOf(versionId: string): Promise<{ lockHash: Digest; definitionHash: Digest; lock: CompilerLock }[]>;
  putPlannerManifest(manifest: PlannerManifest, manifestHash: Digest, definitionHash: Digest, at: number): Promise<void>;
  /**
   * Registers a compiled version atomically: the version, its lock and (for a planned version) the
   * planner manifest are all written, or none is — no version is ever visible without its lock.
   */
  registerVersion(entry: {
    version: WorkflowVersion;
    lock: CompilerLock;
    lockHash: Digest;
    manifest?: { manifest: PlannerManifest; hash: Digest; definitionHash: Digest };
    at: number;
  }): Promise<void>;
  getPlannerManifest(manifestHash: Digest): Promise<PlannerManifest | null>;
}
