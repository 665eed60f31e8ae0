import { LittleError } from "./little-error.ts";

/**
 * Two different documents with the same `wfver_` id: a version id is only 64 bits of its hash,
 * so a collision can be searched for. The store keeps versions by full hash and refuses to
 * register (or serve under that id) a document whose full hash differs from the one stored.
 *
 * @example
 * try { await versions.registerVersion(entry) } catch (e) { if (LittleError.is(e)) e.code // "version_id_collision" }
 */
export class VersionIdCollisionError extends LittleError {
  readonly code = "version_id_collision";
  readonly versionId: string;
  readonly storedHash: string;
  readonly givenHash: string;
  constructor(versionId: string, storedHash: string, givenHash: string) {
    super(
      `Version id ${versionId} is already taken by another document (stored ${storedHash}, registering ${givenHash}); the version is refused, and the stored one is never served in its place`,
    );
    this.name = "VersionIdCollisionError";
    this.versionId = versionId;
    this.storedHash = storedHash;
    this.givenHash = givenHash;
  }
}
