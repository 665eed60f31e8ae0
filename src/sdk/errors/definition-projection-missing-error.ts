import { LittleError } from "./little-error.ts";

/**
 * A definition hash is known (the tenant approved it) but its projection — the snapshot the hash
 * addresses — is not stored, and no workflow of this Worker hashes to it any more, so nothing can
 * say what it launches as. Only for such a hash: a live definition's projection is recorded again
 * instead. Re-deploying a Worker with that definition records it (on the Worker's first request).
 */
export class DefinitionProjectionMissingError extends LittleError {
  readonly code = "definition_projection_missing";
  readonly definitionHash: string;
  constructor(definitionHash: string) {
    super(
      `No stored projection for definition ${definitionHash}, and no workflow of this Worker hashes to it now. Re-deploy a Worker with this definition: it records its workflows' projections on its first request.`,
    );
    this.name = "DefinitionProjectionMissingError";
    this.definitionHash = definitionHash;
  }
}
