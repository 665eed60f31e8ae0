import { definitionCapabilities } from "../engine/definition-capabilities.ts";
import type { RegisteredWorkflow } from "../engine/run-environment.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { SCHEMA_NORMALIZER } from "../schema/normalize-schema.ts";

/**
 * A registered workflow's capabilities under the current schema normalizer, computed once per
 * isolate (definitions are immutable code): the engine's cache, so the API and the run objects of
 * one isolate share one snapshot.
 */
export function capabilitiesOf(workflow: RegisteredWorkflow): Promise<DefinitionCapabilities> {
  return definitionCapabilities(workflow, SCHEMA_NORMALIZER);
}
