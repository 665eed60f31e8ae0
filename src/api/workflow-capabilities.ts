import type { RegisteredWorkflow } from "../engine/run-environment.ts";
import { type DefinitionCapabilities, snapshotDefinition } from "../identity/definition-snapshot.ts";

const cache = new WeakMap<RegisteredWorkflow, Promise<DefinitionCapabilities>>();

/** A registered workflow's capabilities, computed once per isolate (definitions are immutable code). */
export function capabilitiesOf(workflow: RegisteredWorkflow): Promise<DefinitionCapabilities> {
  let pending = cache.get(workflow);
  if (!pending) {
    pending = snapshotDefinition(workflow.definition, workflow.tools, workflow.modelOverrides);
    cache.set(workflow, pending);
    pending.catch(() => cache.delete(workflow));
  }
  return pending;
}
