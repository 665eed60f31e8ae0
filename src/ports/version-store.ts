import type { CompilerLock } from "../identity/compiler-lock.ts";
import type { WorkflowDefinitionSnapshot } from "../identity/definition-snapshot.ts";
import type { Digest } from "../identity/digest.ts";
import type { PlannerManifest } from "../identity/planner-manifest.ts";
import type { WorkflowVersion } from "../identity/workflow-version.ts";

/**
 * Where compiled artifacts live (D1 in production, memory in unit tests). Every write keyed by a
 * hash is idempotent: writing the same key twice keeps the first row and succeeds.
 */
export interface VersionStore {
  putDefinition(snapshot: WorkflowDefinitionSnapshot, definitionHash: Digest, at: number): Promise<void>;
  getDefinition(definitionHash: Digest): Promise<WorkflowDefinitionSnapshot | null>;
  putVersion(version: WorkflowVersion, at: number): Promise<void>;
  putLock(lock: CompilerLock, lockHash: Digest, at: number): Promise<void>;
  getVersion(versionId: string): Promise<WorkflowVersion | null>;
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
