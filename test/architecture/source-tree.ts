import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** One source file, by its path from the repository root (always with `/`). */
export type SourceFile = { readonly path: string; readonly text: string };

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

/** The folders whose files the architecture tests hold to docs/architecture.md. */
export const CHECKED_ROOTS = ["src", "durable-objects"] as const;

/**
 * Every .ts and .js file under src/ and durable-objects/, sorted by path. `LITTLE_ARCH_ROOT` points
 * the tests at another copy of the tree (say, `git archive HEAD src durable-objects | tar -x -C DIR`
 * to check only what is committed).
 */
export function readSourceTree(root: string = process.env.LITTLE_ARCH_ROOT ?? REPO_ROOT): SourceFile[] {
  const files: SourceFile[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        files.push({ path: relative(root, full).split(sep).join("/"), text: readFileSync(full, "utf8") });
      }
    }
  };
  for (const top of CHECKED_ROOTS) visit(join(root, top));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
