import type { WorkflowDefinitionSnapshot } from "../identity/definition-snapshot.ts";
import type { Digest } from "../json/digest.ts";

/** A tenant's approval of one definition hash, with the version pinned for it, if any. */
export type DefinitionApproval = {
  readonly tenant: string;
  readonly definitionHash: Digest;
  readonly workflowId: string;
  readonly approvedAt: number;
  /** The pinned version's display id (`wfver_…`). */
  readonly pinnedVersionId: string | null;
  /** The pinned version's full hash: what runs of the definition look up and execute. */
  readonly pinnedVersionHash: Digest | null;
  readonly pinnedAt: number | null;
};

/** What a pin names: the version's display id and the full hash runs execute. */
export type PinnedVersion = { readonly id: string; readonly hash: Digest };

/** One change of a tenant's approval of a definition hash: who approved or revoked it, and when. */
export type ApprovalAuditEntry = {
  readonly action: "approved" | "revoked";
  readonly workflowId: string;
  readonly at: number;
  /** The token that asked (`tok_…`), `dev` for the dev token, `admin` for the admin token. */
  readonly by: string | null;
};

/** What approving writes: the approval, the projection it freezes, and who asked. */
export type ApproveRequest = {
  readonly tenant: string;
  readonly definitionHash: Digest;
  readonly workflowId: string;
  readonly at: number;
  /**
   * The projection the hash addresses, written (once: projections are keyed by their hash) in the
   * same transaction as the approval row, so an approval never exists without what it approved.
   */
  readonly projection?: WorkflowDefinitionSnapshot;
  readonly by?: string | null;
};

/**
 * Approved definitions per tenant (D1 in production). Approving is idempotent (the first approval's
 * time is kept); a pin is only accepted for an approved hash. Every approval and revocation that
 * changed something is in {@link DefinitionApprovals.audit}.
 */
export interface DefinitionApprovals {
  approve(entry: ApproveRequest): Promise<DefinitionApproval>;
  /**
   * Revokes the tenant's approval (and its pin), recording who did it in the same transaction.
   * Answers the approval as it was, or null when there was none (nothing is recorded then).
   */
  revoke(entry: { tenant: string; definitionHash: Digest; at: number; by?: string | null }): Promise<DefinitionApproval | null>;
  /** The tenant's approvals and revocations of a hash, oldest first. */
  audit(tenant: string, definitionHash: Digest): Promise<ApprovalAuditEntry[]>;
  get(tenant: string, definitionHash: Digest): Promise<DefinitionApproval | null>;
  /** Pins (or with `null` unpins) a version, by id and full hash; false when the hash is not approved for the tenant. */
  pin(tenant: string, definitionHash: Digest, version: PinnedVersion | null, at: number): Promise<boolean>;
  /** The tenant's approvals of a workflow's definitions, newest first. */
  ofWorkflow(tenant: string, workflowId: string): Promise<DefinitionApproval[]>;
}
