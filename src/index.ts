/**
 * The package entry: what a workflow author and an integrator import.
 *
 * @example
 * import { defineWorkflow, model, validateLwir, registerWorkflowVersion } from "little-workflow";
 */

export type { CapabilityManifest, CompilerLock } from "./identity/compiler-lock.ts";
export { lockHash } from "./identity/compiler-lock.ts";
export type { DefinitionCapabilities, WorkflowDefinitionSnapshot } from "./identity/definition-snapshot.ts";
export { snapshotDefinition } from "./identity/definition-snapshot.ts";
export type { PlannerManifest } from "./identity/planner-manifest.ts";
export { manifestHash, plannerManifest } from "./identity/planner-manifest.ts";
export type { WorkflowVersion } from "./identity/workflow-version.ts";
export type { JsonValue } from "./json/canonical-json.ts";
export { CANONICALIZER_ID, canonicalJson } from "./json/canonical-json.ts";
export type { Digest } from "./json/digest.ts";
export { digestJson, digestText, isDigest } from "./json/digest.ts";
export { bindLwir } from "./lwir/bind-lwir.ts";
export { LWIR_FINDING_CODES } from "./lwir/finding-codes.ts";
export type { LockedVersion } from "./lwir/register-workflow-version.ts";
export { compileAndLock, registerWorkflowVersion } from "./lwir/register-workflow-version.ts";
export type { Lwir, LwirStep } from "./lwir/types.ts";
export type { LwirValidation } from "./lwir/validate-lwir.ts";
export { validateLwir } from "./lwir/validate-lwir.ts";
export type { NormalizedOutputMode } from "./schema/normalize-output-mode.ts";
export { normalizeOutputMode } from "./schema/normalize-output-mode.ts";
export type { JsonSchema, NormalizedSchemaDescriptor } from "./schema/normalize-schema.ts";
export { normalizeSchema } from "./schema/normalize-schema.ts";
export { validateJson } from "./schema/validate-json.ts";
export * from "./sdk/index.ts";
