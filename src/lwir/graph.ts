/** A step reduced to what the graph needs. */
export type GraphNode = { readonly id: string; readonly needs: readonly string[] };

/**
 * Finds one cycle in the `needs` graph (ids in order, first repeated at the end), or null.
 * Iterative, so a long chain cannot overflow the stack. Unknown needs are ignored here.
 */
export function findCycle(nodes: readonly GraphNode[]): string[] | null {
  const needs = new Map(nodes.map((n) => [n.id, n.needs]));
  const state = new Map<string, "visiting" | "done">();
  for (const start of nodes) {
    if (state.has(start.id)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: start.id, next: 0 }];
    state.set(start.id, "visiting");
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; next: number };
      const deps = needs.get(top.id) ?? [];
      if (top.next >= deps.length) {
        state.set(top.id, "done");
        stack.pop();
        continue;
      }
      const dep = deps[top.next++] as string;
      if (!needs.has(dep)) continue;
      const s = state.get(dep);
      if (s === "visiting") {
        const from = stack.findIndex((f) => f.id === dep);
        return [...stack.slice(from).map((f) => f.id), dep];
      }
      if (s === undefined) {
        state.set(dep, "visiting");
        stack.push({ id: dep, next: 0 });
      }
    }
  }
  return null;
}

/** Steps no other step needs: exactly one of them makes the workflow's output. */
export function terminalSteps(nodes: readonly GraphNode[]): string[] {
  const needed = new Set(nodes.flatMap((n) => n.needs));
  return nodes.filter((n) => !needed.has(n.id)).map((n) => n.id);
}

/** Every step reachable upstream of each step through `needs` (its transitive dependencies). */
export function upstreamSets(nodes: readonly GraphNode[]): Map<string, Set<string>> {
  const needs = new Map(nodes.map((n) => [n.id, n.needs]));
  const result = new Map<string, Set<string>>();
  for (const node of nodes) {
    const seen = new Set<string>();
    const stack = [...node.needs];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id) || !needs.has(id)) continue;
      seen.add(id);
      stack.push(...(needs.get(id) ?? []));
    }
    result.set(node.id, seen);
  }
  return result;
}
