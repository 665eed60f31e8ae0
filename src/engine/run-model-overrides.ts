import type { ModelOverrides } from "../identity/model-overrides.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import type { RegisteredWorkflow } from "./run-environment.ts";

/** Per registered workflow, its copies by a run's overrides: one object per configuration, so capabilities stay cached. */
const copies = new WeakMap<RegisteredWorkflow, Map<string, RegisteredWorkflow>>();

/**
 * The workflow with a fork's model changes (`RunRequested.modelOverrides`) laid over the
 * deployment's: the start service admits, and the run snapshots and hashes, this same definition.
 * Without overrides it is the workflow itself.
 */
export function withRunModelOverrides(workflow: RegisteredWorkflow, overrides: ModelOverrides | undefined): RegisteredWorkflow {
  if (!overrides || Object.keys(overrides).length === 0) return workflow;
  const key = canonicalJson(overrides);
  let byKey = copies.get(workflow);
  if (!byKey) {
    byKey = new Map();
    copies.set(workflow, byKey);
  }
  let copy = byKey.get(key);
  if (!copy) {
    copy = { ...workflow, modelOverrides: { ...workflow.modelOverrides, ...overrides } };
    byKey.set(key, copy);
  }
  return copy;
}
