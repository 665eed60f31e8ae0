import type { ModelOverrides } from "../identity/model-overrides.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import type { RegisteredWorkflow, WorkflowCatalog } from "./run-environment.ts";

/** Per base workflow, its copies by overrides key: one object per (workflow, configuration). */
const copies = new WeakMap<RegisteredWorkflow, Map<string, RegisteredWorkflow>>();

/**
 * The catalog with the deployment's model overrides attached to every workflow, so every place
 * that snapshots a registered workflow (API, run object) hashes the same overridden definition.
 * The attached copies are memoized: capabilities are cached per workflow object, and the wiring
 * runs on every request.
 */
export function withModelOverrides(catalog: WorkflowCatalog, overrides: ModelOverrides): WorkflowCatalog {
  if (Object.keys(overrides).length === 0) return catalog;
  const key = canonicalJson(overrides);
  const overridden: WorkflowCatalog = {
    ids: () => catalog.ids(),
    get: (workflowId) => {
      const base = catalog.get(workflowId);
      if (!base) return undefined;
      let byKey = copies.get(base);
      if (!byKey) {
        byKey = new Map();
        copies.set(base, byKey);
      }
      let copy = byKey.get(key);
      if (!copy) {
        // Callees too: a caller's hash includes each callee's, which must be the overridden one it runs as.
        const callees = base.callees?.map((c) => overridden.get(c.definition.id) ?? c);
        copy = { ...base, modelOverrides: overrides, ...(callees ? { callees } : {}) };
        byKey.set(key, copy);
      }
      return copy;
    },
  };
  return overridden;
}
