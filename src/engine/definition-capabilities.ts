import { type DefinitionCapabilities, snapshotDefinition } from "../identity/definition-snapshot.ts";
import { SCHEMA_NORMALIZER, type SchemaNormalizerId } from "../schema/normalize-schema.ts";
import { catalogOf, type RegisteredWorkflow } from "./run-environment.ts";

/** Per isolate: a registered workflow is code, so its snapshot under one normalizer never changes. */
const cache = new WeakMap<RegisteredWorkflow, Map<SchemaNormalizerId, Promise<DefinitionCapabilities>>>();

/**
 * A workflow's capabilities (snapshot and definition hash) under a schema normalizer, computed
 * once per isolate and shared by every run object and slice in it — the engine's counterpart of
 * the API's `capabilitiesOf`, keyed by normalizer too because a run keeps the one it started with.
 * A snapshot that fails is not kept: the next call computes it again and fails the same way.
 *
 * @example
 * const caps = await definitionCapabilities(workflow, request.schemaNormalizer ?? LEGACY_SCHEMA_NORMALIZER);
 */
export function definitionCapabilities(workflow: RegisteredWorkflow, normalizer: SchemaNormalizerId): Promise<DefinitionCapabilities> {
  let byNormalizer = cache.get(workflow);
  if (!byNormalizer) {
    byNormalizer = new Map();
    cache.set(workflow, byNormalizer);
  }
  let pending = byNormalizer.get(normalizer);
  if (!pending) {
    // Callees first (the registry refused cycles): the caller's hash includes each callee's.
    pending = Promise.all((workflow.callees ?? []).map((callee) => definitionCapabilities(callee, normalizer))).then((callees) =>
      snapshotDefinition(workflow.definition, workflow.tools, workflow.modelOverrides, normalizer, callees),
    );
    byNormalizer.set(normalizer, pending);
    const kept = byNormalizer;
    pending.catch(() => kept.delete(normalizer));
  }
  return pending;
}

/**
 * The capabilities of one workflow of a registry given as a list (src/workflows.ts, a test's):
 * built through the catalog, so a workflow that calls others has its callees' hashes and schemas.
 *
 * @example
 * const caps = await registeredCapabilities(registeredWorkflows, "support.escalate");
 */
export function registeredCapabilities(
  entries: readonly RegisteredWorkflow[],
  workflowId: string,
  normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER,
): Promise<DefinitionCapabilities> {
  const registered = catalogOf(entries).get(workflowId);
  if (!registered) throw new Error(`no workflow "${workflowId}" in the registry`);
  return definitionCapabilities(registered, normalizer);
}
