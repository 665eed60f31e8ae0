import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import { digestJson } from "../../json/digest.ts";
import type { DefinitionApprovals } from "../../ports/definition-approvals.ts";
import type { SecretStore } from "../../ports/secret-store.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { DefinitionNotApprovedError } from "../../sdk/errors/definition-not-approved-error.ts";
import { SecretsKeyMissingError } from "../../sdk/errors/secrets-key-missing-error.ts";
import { StartRefusedError } from "../../sdk/errors/start-refused-error.ts";
import { readApproval } from "./approval-reads.ts";

/** What the gate reads: the tenant's approvals, the stored projections, the secrets a definition binds. */
export type DefinitionGatePorts = {
  readonly versions: VersionStore;
  readonly approvals: DefinitionApprovals;
  readonly secrets: SecretStore;
};

/** What a start carries into the run after the gate: the approved hash and the pinned version. */
export type AdmittedDefinition = {
  readonly approvedDefinitionHash?: DefinitionCapabilities["definitionHash"];
  /** Which approval of it (its `approvedAt`), so a revoke and re-approve is told apart. */
  readonly approvedAt?: number;
  readonly pinnedVersionId?: string;
  /** The pinned version's full hash (the run looks up and executes exactly it). */
  readonly pinnedVersionHash?: DefinitionCapabilities["definitionHash"];
};

/** Definition hashes this isolate has stored: a projection is written once, not on every start. */
const stored = new Set<string>();

/**
 * Records the definition's projection (the first time this Worker sees its hash, so the API can
 * answer "what does this launch as" without evaluating code), then applies the tenant's approval:
 * a workflow with `requireApproval` starts only when its recomputed hash is approved and the stored
 * projection still hashes to it; a pinned version rides along so the run skips the planner.
 */
export async function admitDefinition(
  services: DefinitionGatePorts,
  tenant: string,
  capabilities: DefinitionCapabilities,
  now: number,
): Promise<AdmittedDefinition> {
  const hash = capabilities.definitionHash;
  if (!stored.has(hash)) {
    await services.versions.putDefinition(capabilities.snapshot, hash, now);
    stored.add(hash);
  }
  const required = capabilities.snapshot.approval === "required";
  // A recent read is enough: the run object re-reads it before the first step (approval-reads.ts).
  const approval = await readApproval(services.approvals, tenant, hash, now, { keepAbsent: !required });
  if (required) {
    if (!approval) throw new DefinitionNotApprovedError(capabilities.snapshot.id, hash);
    const projection = await services.versions.getDefinition(hash);
    // The definition is live (it is what this start runs): a lost row is recorded again, not refused.
    if (!projection) await services.versions.putDefinition(capabilities.snapshot, hash, now);
    else if (digestJson(projection) !== hash)
      throw new StartRefusedError(
        "definition_projection_mismatch",
        `The stored projection of ${hash} no longer hashes to it; re-deploy and approve again`,
      );
  }
  const secretNames = capabilities.snapshot.secrets ?? [];
  if (secretNames.length > 0) {
    // Fail closed before anything is created: no key, or a secret the tenant has not set.
    if (!services.secrets.keyConfigured) throw new SecretsKeyMissingError();
    await services.secrets.reveal(tenant, secretNames);
  }
  return {
    ...(approval ? { approvedDefinitionHash: hash, approvedAt: approval.approvedAt } : {}),
    ...(approval?.pinnedVersionId ? { pinnedVersionId: approval.pinnedVersionId } : {}),
    ...(approval?.pinnedVersionHash ? { pinnedVersionHash: approval.pinnedVersionHash } : {}),
  };
}
