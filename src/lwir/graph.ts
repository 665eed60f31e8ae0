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

/**
 * Every step reachable upstream of each step through `needs` (its transitive dependencies; a step
 * on a cycle reaches itself). Unknown needs are ignored; with duplicate ids the last one's needs
 * count. Linear in the graph times n/32: strongly connected components (iterative Tarjan, emitted
 * dependencies first) each get one bitset, OR-ed from the components they need. A per-step
 * traversal would be O(steps × edges), seconds of CPU for a dense 1,000-step document.
 */
export function upstreamSets(nodes: readonly GraphNode[]): Map<string, ReadonlySet<string>> {
  const index = new Map<string, number>();
  for (const node of nodes) if (!index.has(node.id)) index.set(node.id, index.size);
  const ids = [...index.keys()];
  const n = ids.length;
  const adjacency: number[][] = ids.map(() => []);
  for (const node of nodes) {
    adjacency[index.get(node.id) as number] = node.needs.filter((d) => index.has(d)).map((d) => index.get(d) as number);
  }

  // Tarjan's algorithm without recursion. A component is emitted after every component it needs.
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n);
  const components: number[][] = [];
  const stack: number[] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if ((order[root] as number) !== -1) continue;
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    const work: Array<{ v: number; next: number }> = [{ v: root, next: 0 }];
    while (work.length > 0) {
      const frame = work[work.length - 1] as { v: number; next: number };
      const edges = adjacency[frame.v] as number[];
      if (frame.next < edges.length) {
        const w = edges[frame.next++] as number;
        if ((order[w] as number) === -1) {
          order[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push({ v: w, next: 0 });
        } else if (onStack[w]) low[frame.v] = Math.min(low[frame.v] as number, order[w] as number);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low[parent.v] = Math.min(low[parent.v] as number, low[frame.v] as number);
      if (low[frame.v] === order[frame.v]) {
        const members: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          component[w] = components.length;
          members.push(w);
        } while (w !== frame.v);
        components.push(members);
      }
    }
  }

  const words = Math.ceil(n / 32);
  const bits = components.map(() => new Uint32Array(words));
  components.forEach((members, c) => {
    const own = bits[c] as Uint32Array;
    for (const v of members) {
      for (const d of adjacency[v] as number[]) {
        own[d >>> 5] = (own[d >>> 5] as number) | (1 << (d & 31));
        const dc = component[d] as number;
        if (dc === c) continue;
        const theirs = bits[dc] as Uint32Array;
        for (let k = 0; k < words; k++) own[k] = (own[k] as number) | (theirs[k] as number);
      }
    }
  });

  const sets = bits.map((b) => {
    const set = new Set<string>();
    for (let i = 0; i < n; i++) if (((b[i >>> 5] as number) >>> (i & 31)) & 1) set.add(ids[i] as string);
    return set;
  });
  // Steps on one cycle share their (read-only) set.
  const result = new Map<string, ReadonlySet<string>>();
  for (const node of nodes) result.set(node.id, sets[component[index.get(node.id) as number] as number] as Set<string>);
  return result;
}
