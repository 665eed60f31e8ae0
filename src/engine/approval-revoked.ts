import type { RunEventPayloads } from "../ports/run-events.ts";
import type { RunEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";

/**
 * Fail closed when the approval a run was started under has been revoked since
 * (`DELETE /v1/definitions/:hash/approve`): checked at the start of every slice, so a run the
 * revocation's sweep did not reach (started while it ran) still stops before its next step. A run
 * started under no approval is not affected.
 */
export async function approvalRevoked(env: RunEnvironment, request: RunEventPayloads["RunRequested"]): Promise<RunFailure | null> {
  const hash = request.approvedDefinitionHash;
  if (hash === undefined) return null;
  const current = await env.approvals.get(request.tenant, hash);
  // Approved again after a revocation is another approval: a run started under the first still fails.
  if (current && (request.approvedAt === undefined || current.approvedAt === request.approvedAt)) return null;
  return new RunFailure(
    "definition_approval_revoked",
    `The approval of definition ${hash} this run was started under was revoked; the run fails closed`,
    { definitionHash: hash },
  );
}
