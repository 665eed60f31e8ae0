import { LittleError } from "../../sdk/errors/little-error.ts";

/** The kinds of hash-keyed artifacts the version store keeps. */
export type StoredArtifactKind = "definition" | "version" | "lock" | "planner_manifest";

/**
 * A stored artifact whose bytes no longer hash to the key it is stored under (or no longer parse):
 * the row was changed after it was written. Reads fail closed instead of handing out the changed
 * document.
 *
 * @example
 * try { await versions.getLock(hash) } catch (e) { if (e instanceof StoredArtifactTamperedError) e.kind // "lock" }
 */
export class StoredArtifactTamperedError extends LittleError {
  readonly code = "stored_artifact_tampered";
  readonly kind: StoredArtifactKind;
  readonly key: string;

  constructor(kind: StoredArtifactKind, key: string, reason: string) {
    super(`The stored ${kind.replace("_", " ")} ${key} was changed after it was written (${reason}); refusing to use it`);
    this.name = "StoredArtifactTamperedError";
    this.kind = kind;
    this.key = key;
  }
}
