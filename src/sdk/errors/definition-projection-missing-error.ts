import { LittleError } from "./little-error.ts";

/**
 * A definition hash is known (approved, or named by a run) but its projection — the snapshot the
 * hash addresses — is not stored, so nothing can say what it launches as. Re-deploying the Worker
 * with that definition and starting (or dry-running) it once records the projection again.
 */
export class DefinitionProjectionMissingError extends LittleError {
  readonly code = "definition_projection_missing";
  readonly definitionHash: string;
  constructor(definitionHash: string) {
    super(
      `No stored projection for definition ${definitionHash}. Re-deploy the Worker with this definition and call GET /v1/workflows/<id>/definition once to record it, then approve it again.`,
    );
    this.name = "DefinitionProjectionMissingError";
    this.definitionHash = definitionHash;
  }
}
