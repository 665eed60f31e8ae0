import { LittleError } from "./little-error.ts";

/**
 * A workflow that requires approval was started while its live definition hash is not approved
 * for the tenant. Nothing was created: approve the hash (`POST /v1/definitions/:hash/approve`)
 * after reviewing its projection (`GET /v1/definitions/:hash`).
 */
export class DefinitionNotApprovedError extends LittleError {
  readonly code = "definition_not_approved";
  readonly definitionHash: string;
  constructor(workflowId: string, definitionHash: string) {
    super(
      `Workflow "${workflowId}" requires an approved definition; its live definition ${definitionHash} is not approved. Review GET /v1/definitions/${definitionHash}, then POST /v1/definitions/${definitionHash}/approve.`,
    );
    this.name = "DefinitionNotApprovedError";
    this.definitionHash = definitionHash;
  }
}
