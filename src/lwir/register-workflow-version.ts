import { buildCompilerLock, type CompilerLock, lockHash } from "../identity/compiler-lock.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { memoryStoreIds } from "../identity/planner-manifest.ts";
import { contentAddress, type WorkflowVersion } from "../identity/workflow-version.ts";
import type { Digest } from "../json/digest.ts";
import { LwirInvalidError } from "../sdk/errors/lwir-invalid-error.ts";
import { type Finding, hasNoErrors } from "../sdk/finding.ts";
import { bindLwir } from "./bind-lwir.ts";
import type { Lwir } from "./types.ts";
import { validateLwir } from "./validate-lwir.ts";
import { withValidatorFindings } from "./validator-findings.ts";

/**
 * Registers valid LWIR as an immutable {@link WorkflowVersion}: `wfver_` + 16 hex of
 * `sha256(canonicalJson(lwir))`. Equal LWIR gives an equal version. Throws
 * {@link LwirInvalidError} with the findings when the document is not valid LWIR.
 *
 * @example
 * const version = registerWorkflowVersion(lwir);
 * version.id // "wfver_4f0aab7d12345678"
 */
export function registerWorkflowVersion(lwir: unknown): WorkflowVersion<Lwir> {
  const { valid, findings } = validateLwir(lwir);
  if (!valid) throw new LwirInvalidError(findings);
  return contentAddress(lwir as Lwir);
}

/** A version locked to the definition it was compiled for. */
export type LockedVersion = {
  readonly version: WorkflowVersion<Lwir>;
  readonly lock: CompilerLock;
  readonly lockHash: Digest;
  /** Findings of both passes; only warnings, since errors refuse the version. */
  readonly findings: readonly Finding[];
};

/**
 * Validates, binds, registers and locks LWIR against a definition's capabilities (compile
 * stages 7–8, docs/architecture.md). Throws {@link LwirInvalidError} with every finding from both passes.
 */
export function compileAndLock(lwir: unknown, capabilities: DefinitionCapabilities): LockedVersion {
  const structural = validateLwir(lwir);
  // The run's validator (`capabilities.lwirValidator`) decides what is checked, so a resumed run re-derives its own lock.
  const findings = structural.valid
    ? withValidatorFindings([...structural.findings, ...bindLwir(lwir, capabilities)], lwir, capabilities)
    : [...structural.findings];
  if (!hasNoErrors(findings)) throw new LwirInvalidError(findings);
  const version = contentAddress(lwir as Lwir);
  const lock = buildCompilerLock({
    version,
    permissions: version.lwir.permissions,
    capabilities,
    memoryStoreIds: memoryStoreIds(capabilities.snapshot),
    findings,
  });
  return { version, lock, lockHash: lockHash(lock), findings };
}
