import { importsOf } from "./imports.ts";
import type { SourceFile } from "./source-tree.ts";

/**
 * The import loops among `files`: each strongly connected set of two or more files (type-only
 * imports count: a loop of types still ties two files into one), as sorted paths, sorted.
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const known = new Set(files.map((f) => f.path));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file).flatMap((ref) => (ref.target && known.has(ref.target) && ref.target !== file.path ? [ref.target] : []));
    edges.set(file.path, [...new Set(targets)]);
  }
  return stronglyConnected(edges)
    .filter((set) => set.length > 1)
    .map((set) => set.sort())
    .sort((a, b) => ((a[0] ?? "") < (b[0] ?? "") ? -1 : 1));
}

/** Tarjan's algorithm, iterative (no recursion limit on long import chains). */
function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sets: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; child: number };
      const targets = edges.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child++] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const set: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          set.push(member);
        } while (member !== frame.node);
        sets.push(set);
      }
    }
  }
  return sets;
}
