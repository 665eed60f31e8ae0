import { type ImportRef, importsOf } from "./imports.ts";
import type { SourceFile } from "./source-tree.ts";

/**
 * One row of the layer table in docs/architecture.md. The table is read from the document itself,
 * so the document and this check cannot drift apart.
 */
export type Layer = {
  readonly name: string;
  /** Path prefixes: a folder ends with `/`, anything else is one file. */
  readonly paths: readonly string[];
  /** A core layer imports no Cloudflare module and no platform library (see {@link platformModule}). */
  readonly core: boolean;
  /**
   * Layers whose code this one may import (its own is always allowed), and npm packages named
   * one by one (a name that is no layer: `zod` for the event schema in `ports`).
   */
  readonly mayImport: readonly string[];
  /** Layers this one may import only with `import type`; `packages` stands for every npm package. */
  readonly typesFrom: readonly string[];
};

export type Violation = {
  readonly from: string;
  readonly line: number;
  /** A path from the repository root, or a package specifier. */
  readonly to: string;
  readonly rule: string;
};

/** A known violation kept on purpose for now: the file, what it imports, and why. */
export type Exception = { readonly from: string; readonly to: string; readonly reason: string };

/** In a "types only from" cell: every npm package (`ai`, `zod`, …). */
export const PACKAGES = "packages";

const BEGIN = "<!-- layer-table:begin -->";
const END = "<!-- layer-table:end -->";

/**
 * Reads the table between the layer-table markers. Columns: layer, paths, core, may import,
 * types only from, holds. Names and paths are the `code` spans of a cell; "yes" marks a core layer.
 */
export function parseLayerTable(markdown: string): Layer[] {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/architecture.md has no ${BEGIN} … ${END} table`);
  const rows = markdown
    .slice(start + BEGIN.length, end)
    .split("\n")
    .filter((line) => line.trim().startsWith("|"))
    .slice(2); // header and separator
  return rows.map((row) => {
    const cells = row.split("|").slice(1, -1);
    const spans = (i: number) => [...(cells[i] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const [name] = spans(0);
    if (!name) throw new Error(`layer table row without a name: ${row}`);
    return { name, paths: spans(1), core: (cells[2] ?? "").trim() === "yes", mayImport: spans(3), typesFrom: spans(4) };
  });
}

/** The layer a path belongs to: the one with the longest matching path prefix. */
export function layerOf(path: string, layers: readonly Layer[]): Layer | null {
  let best: { layer: Layer; length: number } | null = null;
  for (const layer of layers) {
    for (const prefix of layer.paths) {
      const hit = prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix;
      if (hit && (!best || prefix.length > best.length)) best = { layer, length: prefix.length };
    }
  }
  return best?.layer ?? null;
}

/**
 * Modules the core never imports: Cloudflare's (`cloudflare:*`, `@cloudflare/*`, `agents`), and the
 * libraries that tie code to one platform or one edge (drizzle for D1, hono for HTTP, `node:*`).
 * The core runs unchanged in workerd, in Node (the CLI) and in tests. Null when the module is fine.
 */
export function platformModule(specifier: string): string | null {
  if (specifier.startsWith("cloudflare:")) return "a Cloudflare module";
  if (specifier.startsWith("@cloudflare/")) return "a Cloudflare package";
  if (specifier === "agents" || specifier.startsWith("agents/")) return "the Cloudflare agents SDK";
  if (specifier === "drizzle-orm" || specifier.startsWith("drizzle-orm/")) return "drizzle (a D1 adapter's library)";
  if (specifier === "hono" || specifier.startsWith("hono/") || specifier.startsWith("@hono/")) return "hono (the HTTP edge's library)";
  if (specifier.startsWith("node:")) return "a Node built-in";
  return null;
}

/** Every import of `files` that the table forbids, in file order. */
export function checkLayers(files: readonly SourceFile[], layers: readonly Layer[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const from = layerOf(file.path, layers);
    if (!from) {
      violations.push({ from: file.path, line: 1, to: file.path, rule: "the file belongs to no layer of docs/architecture.md" });
      continue;
    }
    for (const ref of importsOf(file)) {
      const rule = ruleBroken(from, ref, layers);
      if (rule) violations.push({ from: file.path, line: ref.line, to: ref.target ?? ref.specifier, rule });
    }
  }
  return violations;
}

function ruleBroken(from: Layer, ref: ImportRef, layers: readonly Layer[]): string | null {
  if (ref.target === null) {
    const platform = from.core ? platformModule(ref.specifier) : null;
    if (platform) return `core layer ${from.name} imports ${platform}`;
    if (from.mayImport.includes(packageName(ref.specifier))) return null;
    return from.typesFrom.includes(PACKAGES) && ref.kind !== "type" ? `${from.name} may import only types from packages` : null;
  }
  const to = layerOf(ref.target, layers);
  if (!to) return `${from.name} imports ${ref.target}, outside every layer (src/ and durable-objects/ import no tests or scripts)`;
  if (to === from || from.mayImport.includes(to.name)) return null;
  if (from.typesFrom.includes(to.name)) return ref.kind === "type" ? null : `${from.name} may import only types from ${to.name}`;
  return `${from.name} may not import ${to.name}`;
}

/** The package a bare specifier names: `zod` for `zod/mini`, `@scope/name` for `@scope/name/sub`. */
export function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/**
 * Splits violations into the ones no exception covers and the exceptions that no longer match
 * anything (a fixed violation must leave the list, so the list only shrinks).
 */
export function applyExceptions(
  violations: readonly Violation[],
  exceptions: readonly Exception[],
): { unexcused: Violation[]; stale: Exception[] } {
  const used = new Set<Exception>();
  const unexcused = violations.filter((v) => {
    const exception = exceptions.find((e) => e.from === v.from && e.to === v.to);
    if (exception) used.add(exception);
    return !exception;
  });
  return { unexcused, stale: exceptions.filter((e) => !used.has(e)) };
}

export function describeViolation(v: Violation): string {
  return `${v.from}:${v.line} -> ${v.to}: ${v.rule}`;
}
