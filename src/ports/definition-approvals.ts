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

/**
 * Approved definitions per tenant (D1 in production). Approving is idempotent (the first approval's
 * time is kept); a pin is only accepted for an approved hash.
 */
export interface DefinitionApprovals {
  approve(entry: { tenant: string; definitionHash: Digest; workflowId: string; at: number }): Promise<DefinitionApproval>;
  get(tenant: string, definitionHash: Digest): Promise<DefinitionApproval | null>;
  /** Pins (or with `null` unpins) a version, by id and full hash; false when the hash is not approved for the tenant. */
  pin(tenant: string, definitionHash: Digest, version: PinnedVersion | null, at: number): Promise<boolean>;
  /** The tenant's approvals of a workflow's definitions, newest first. */
  ofWorkflow(tenant: string, workflowId: string): Promise<DefinitionApproval[]>;
}
