import { type Digest, digestJson } from "../json/digest.ts";
import type { NormalizedOutputMode } from "../schema/normalize-output-mode.ts";
import type { Finding } from "../sdk/finding.ts";
import type { DefinitionCapabilities } from "./definition-snapshot.ts";
import type { ResolvedModelSlot } from "./model-slots.ts";
import type { ToolDescriptor } from "./tool-descriptors.ts";
import type { WorkflowVersion } from "./workflow-version.ts";

export { LEGACY_LWIR_VALIDATOR_ID, LWIR_VALIDATOR_ID, type LwirValidatorId } from "./lwir-validator-id.ts";

/**
 * What a version may touch, resolved against the definition it was compiled for: only the slots
 * and tools its permissions name, each with the identity the runtime re-checks before use.
 */
export type CapabilityManifest = {
  readonly workflowDefinitionHash: Digest;
  readonly modelSlots: readonly ResolvedModelSlot[];
  readonly tools: readonly { readonly id: string; readonly descriptorHash: Digest }[];
  readonly secrets: readonly string[];
  readonly network: readonly string[];
  readonly memoryStoreIds: readonly string[];
};

/**
 * The compiler lock (compile stage 8, docs/architecture.md). The runtime checks it before each step: a version, a
 * definition or a tool that no longer hashes to what is locked fails closed.
 *
 * `workflowVersionId` equals `lwirVersionId` (`wfver_…`): the specification's `wfv_` in one
 * example is read as a typo, since it also states WorkflowVersion = sha256(canonicalJson(LWIR)).
 */
export type CompilerLock = {
  readonly workflowVersionId: string;
  readonly workflowVersionHash: Digest;
  readonly lwirVersionId: string;
  readonly lwirHash: Digest;
  readonly workflowDefinitionHash: Digest;
  readonly inputSchemaHash: Digest;
  readonly requestedOutput: NormalizedOutputMode;
  readonly requestedOutputHash: Digest;
  readonly capabilityManifest: CapabilityManifest;
  readonly capabilityManifestHash: Digest;
  readonly modelSlots: readonly ResolvedModelSlot[];
  readonly tools: readonly ToolDescriptor[];
  readonly validationHash: Digest;
};

/** The permissions part of LWIR the lock resolves. */
export type LockPermissions = {
  readonly models: readonly string[];
  readonly tools: readonly string[];
  readonly secrets: readonly string[];
  readonly network: readonly string[];
};

/**
 * Locks a registered version to the definition it was compiled against.
 *
 * @example
 * const lock = buildCompilerLock({ version, permissions: lwir.permissions, capabilities, memoryStoreIds, findings });
 * lockHash(lock) // stored with the version; recomputed before each step
 */
export function buildCompilerLock(args: {
  version: WorkflowVersion;
  permissions: LockPermissions;
  capabilities: DefinitionCapabilities;
  memoryStoreIds: readonly string[];
  findings: readonly Finding[];
}): CompilerLock {
  const { version, permissions, capabilities } = args;
  const sorted = (xs: readonly string[]) => [...xs].sort();
  const allowedModels = new Set(permissions.models);
  const allowedTools = new Set(permissions.tools);
  const modelSlots = capabilities.snapshot.modelSlots.filter((s) => allowedModels.has(s.id));
  const tools = capabilities.snapshot.tools.filter((t) => allowedTools.has(t.id));
  const capabilityManifest: CapabilityManifest = {
    workflowDefinitionHash: capabilities.definitionHash,
    modelSlots,
    tools: tools.map((t) => ({ id: t.id, descriptorHash: t.descriptorHash })),
    secrets: sorted(permissions.secrets),
    network: sorted(permissions.network),
    memoryStoreIds: [...args.memoryStoreIds],
  };
  return {
    workflowVersionId: version.id,
    workflowVersionHash: version.hash,
    lwirVersionId: version.id,
    lwirHash: version.hash,
    workflowDefinitionHash: capabilities.definitionHash,
    inputSchemaHash: capabilities.snapshot.inputSchemaHash,
    requestedOutput: capabilities.requestedOutput,
    requestedOutputHash: digestJson(capabilities.requestedOutput),
    capabilityManifest,
    capabilityManifestHash: digestJson(capabilityManifest),
    modelSlots,
    tools,
    validationHash: digestJson({
      validator: capabilities.lwirValidator,
      lwirHash: version.hash,
      definitionHash: capabilities.definitionHash,
      findings: args.findings,
    }),
  };
}

/** Digest of the whole lock, stored beside it so a tampered lock is detected. */
export function lockHash(lock: CompilerLock): Digest {
  return digestJson(lock);
}
