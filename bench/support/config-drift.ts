/**
 * Where bench/wrangler.bench.toml no longer matches wrangler.toml. The bench Worker must have the
 * production shape — every binding, migration, trigger, queue and container of the deployed
 * Worker — so that what the benchmarks measure is what runs in production; it may differ in its
 * name, main, vars and the bench-only additions (its Workflow, the `Bench*` Durable Objects and
 * their `bench-*` migrations). Both files are parsed and compared as data, with paths resolved
 * from each file's own folder, so comments, order of keys and relative paths do not count.
 */
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parse } from "smol-toml";

type Toml = Record<string, unknown>;

/** Top-level keys that may differ: the Worker's identity, its entry and its vars. */
const MAY_DIFFER = new Set(["name", "main", "vars"]);
/** Top-level keys only the bench Worker has (the peer Workflow lives there). */
const BENCH_ONLY_KEYS = new Set(["workflows"]);
/** Keys, at any depth, whose values are paths relative to the config file. */
const PATH_KEYS = new Set(["migrations_dir", "image"]);

const isBenchClass = (name: unknown) => typeof name === "string" && name.startsWith("Bench");

/** The differences between the two configs, one line each; empty when the bench mirrors production. */
export async function configDrift(productionFile: string, benchFile: string): Promise<string[]> {
  const production = normalize(parse(await readFile(productionFile, "utf8")), dirname(productionFile));
  const bench = withoutBenchOnly(normalize(parse(await readFile(benchFile, "utf8")), dirname(benchFile)));
  const keys = new Set([...Object.keys(production), ...Object.keys(bench)].filter((k) => !MAY_DIFFER.has(k)));
  const drift: string[] = [];
  for (const key of [...keys].sort()) {
    const want = JSON.stringify(production[key] ?? null);
    const have = JSON.stringify(bench[key] ?? null);
    if (want !== have) drift.push(`${key}: wrangler.toml has ${want}, the bench config has ${have}`);
  }
  return drift;
}

/** The repository's two configs (from `root`, the repository or a snapshot of it). */
export function repositoryConfigDrift(root: string): Promise<string[]> {
  return configDrift(join(root, "wrangler.toml"), join(root, "bench/wrangler.bench.toml"));
}

/** Relative paths made absolute from `dir`, recursively. */
function normalize(value: Toml, dir: string): Toml {
  const walk = (v: unknown, key: string | null): unknown => {
    if (Array.isArray(v)) return v.map((item) => walk(item, null));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (key && PATH_KEYS.has(key) && typeof v === "string") return resolve(dir, v);
    return v;
  };
  return walk(value, null) as Toml;
}

/** The bench config without its bench-only additions. */
function withoutBenchOnly(config: Toml): Toml {
  const out: Toml = Object.fromEntries(Object.entries(config).filter(([k]) => !BENCH_ONLY_KEYS.has(k)));
  const objects = out.durable_objects as { bindings?: { class_name?: unknown }[] } | undefined;
  if (objects?.bindings) out.durable_objects = { ...objects, bindings: objects.bindings.filter((b) => !isBenchClass(b.class_name)) };
  const migrations = out.migrations as { tag?: unknown }[] | undefined;
  if (migrations) out.migrations = migrations.filter((m) => !(typeof m.tag === "string" && m.tag.startsWith("bench-")));
  return out;
}
