import type { Fail } from "./check-runtime-config.ts";
import { childPath } from "./json-path.ts";
import { WORKFLOW_ID_PATTERN } from "./names.ts";

/** The callees' ids, sorted and once each. */
export function calleeIds(workflows: readonly ({ readonly id: string } | string)[]): string[] {
  return [...new Set(workflows.map((w) => (typeof w === "string" ? w : w.id)))].sort();
}

/** Each `workflows` entry is a definition or a workflow id, and not the workflow itself. */
export function checkCallees(def: { readonly id: string; readonly workflows?: readonly unknown[] }, fail: Fail): void {
  if (def.workflows === undefined) return;
  if (!Array.isArray(def.workflows)) {
    fail("$.workflows", "definition.invalid_workflows", "workflows lists the workflows it may call: [otherWorkflow, …]");
    return;
  }
  def.workflows.forEach((w: unknown, i) => {
    const id =
      typeof w === "string"
        ? w
        : (w as { kind?: unknown; id?: unknown } | null)?.kind === "little.workflow"
          ? (w as { id: unknown }).id
          : undefined;
    if (typeof id !== "string" || !WORKFLOW_ID_PATTERN.test(id))
      fail(childPath("$.workflows", i), "definition.invalid_workflows", "each entry is a defineWorkflow() result or a workflow id");
    else if (id === def.id)
      fail(childPath("$.workflows", i), "definition.calls_itself", `workflow "${id}" may not call itself (a call cycle)`);
  });
}
