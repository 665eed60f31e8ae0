import { WorkflowCallCycleError } from "../../sdk/errors/workflow-call-cycle-error.ts";
import { WorkflowCalleeMissingError } from "../../sdk/errors/workflow-callee-missing-error.ts";

/** A registry entry as the call graph reads it (a `RegisteredWorkflow`; generic so this file imports none of the environment). */
type Entry<E> = { readonly definition: { readonly id: string; readonly workflows?: readonly string[] }; readonly callees?: readonly E[] };

/** How deep child runs may nest: a root run is depth 0, so at most 8 levels of `workflow.run` below it. */
export const MAX_CHILD_DEPTH = 8;

/**
 * The registry's entries with each caller's `callees` resolved to the registered entries (so a
 * caller's definition hash can include each callee's), after checking the call graph: every
 * declared callee registered ({@link WorkflowCalleeMissingError}) and no cycle
 * ({@link WorkflowCallCycleError}). Entries that call nothing are returned as they are.
 */
export function resolveCallGraph<E extends Entry<E>>(entries: readonly E[]): E[] {
  const byId = new Map(entries.map((e) => [e.definition.id, e]));
  for (const entry of entries) {
    const missing = (entry.definition.workflows ?? []).filter((id) => !byId.has(id));
    if (missing.length > 0) throw new WorkflowCalleeMissingError(entry.definition.id, missing);
  }
  const resolved = new Map<string, E>();
  const onPath: string[] = [];
  const visit = (id: string): E => {
    const done = resolved.get(id);
    if (done) return done;
    const at = onPath.indexOf(id);
    if (at !== -1) throw new WorkflowCallCycleError([...onPath.slice(at), id]);
    const entry = byId.get(id) as E;
    const calls = entry.definition.workflows ?? [];
    onPath.push(id);
    const callees = calls.map(visit);
    onPath.pop();
    const out: E = calls.length > 0 ? { ...entry, callees } : entry;
    resolved.set(id, out);
    return out;
  };
  return entries.map((e) => visit(e.definition.id));
}
