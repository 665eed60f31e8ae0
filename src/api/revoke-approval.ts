import { forgetApproval } from "../engine/runs/approval-reads.ts";
import type { Digest } from "../json/digest.ts";
import type { DefinitionApproval } from "../ports/definition-approvals.ts";
import type { RunCursor } from "../ports/run-index.ts";
import { isEndedStatus, RUN_STATUSES } from "../ports/run-status.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { ApiServices } from "./api-env.ts";
import type { Principal } from "./auth.ts";

/** Statuses of runs that have started and not ended: the ones a revocation can still stop (an anchor, `minted`, has not started). */
const UNFINISHED = RUN_STATUSES.filter((s) => s !== "minted" && !isEndedStatus(s));
const PAGE = 100;

/** Who asked, as the audit records it: a token id, `dev` for the dev token, `admin` for the admin token. */
export function actorOf(principal: Principal): string {
  return principal.kind === "admin" ? "admin" : (principal.tokenId ?? "dev");
}

/**
 * Revokes a tenant's approval of a definition hash (the row, its pin and an audit entry, in one
 * transaction), then fails closed every unfinished run that was started under it: each gets
 * `RunFailed { causeCode: "definition_approval_revoked" }`, whether it waits for a trigger, an
 * approval or a retry, or is in a slice (which stops). The run object checks that the run carries
 * this approved hash, so runs of the workflow started otherwise are left alone; a run the sweep
 * misses (started while it ran) fails at its next slice. Null when the hash was not approved.
 */
export async function revokeApproval(
  services: ApiServices,
  tenant: string,
  hash: Digest,
  by: string,
): Promise<{ revoked: DefinitionApproval; endedRuns: string[] } | null> {
  const revoked = await services.approvals.revoke({ tenant, definitionHash: hash, at: services.clock.now(), by });
  forgetApproval(services.approvals, tenant, hash);
  if (!revoked) return null;
  const endedRuns: string[] = [];
  for (const status of UNFINISHED) {
    let before: RunCursor | undefined;
    for (;;) {
      const page = await services.runs.list({ tenant, workflowId: revoked.workflowId, status, limit: PAGE, ...(before ? { before } : {}) });
      const ended = await Promise.all(
        page
          // A pending run has not indexed its definition yet; the run object decides.
          .filter((r) => r.definitionHash === null || r.definitionHash === hash)
          .map(async (r) => {
            const result = await services.runHandles
              .open(tenant, r.runId, r.placement)
              .end({
                causeCode: "definition_approval_revoked",
                message: `The approval of definition ${hash} was revoked (by ${by}); runs started under it fail closed`,
                details: { definitionHash: hash, revokedBy: by },
                only: { approvedDefinitionHash: hash, approvedAt: revoked.approvedAt },
              })
              // A refusal (not under this approval, ended, gone) leaves the run as it is.
              .catch((error: unknown) => {
                if (LittleError.is(error)) return null;
                throw error;
              });
            return result?.ended ? r.runId : null;
          }),
      );
      for (const id of ended) if (id) endedRuns.push(id);
      const last = page.at(-1);
      if (page.length < PAGE || !last) break;
      before = { createdAt: last.createdAt, runId: last.runId };
    }
  }
  return { revoked, endedRuns };
}
