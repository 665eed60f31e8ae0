/**
 * The bench Worker keeps the production shape: bench/wrangler.bench.toml has every binding,
 * migration, trigger, queue and container of wrangler.toml (bench/support/config-drift.ts), so a
 * binding added to one config and not the other fails here instead of skewing the benchmarks.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configDrift, repositoryConfigDrift } from "../../bench/support/config-drift.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Copies of the two configs, the bench one edited by `edit`, laid out as in the repository. */
async function drift(edit: (bench: string) => string, editProduction: (production: string) => string = (p) => p): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "bench-config-"));
  dirs.push(dir);
  await writeFile(join(dir, "wrangler.toml"), editProduction(await readFile(join(ROOT, "wrangler.toml"), "utf8")));
  await mkdir(join(dir, "bench"));
  await writeFile(join(dir, "bench/wrangler.bench.toml"), edit(await readFile(join(ROOT, "bench/wrangler.bench.toml"), "utf8")));
  return configDrift(join(dir, "wrangler.toml"), join(dir, "bench/wrangler.bench.toml"));
}

describe("bench/wrangler.bench.toml mirrors wrangler.toml", () => {
  it("has every binding, migration, trigger, queue and container of the production config", async () => {
    expect(await repositoryConfigDrift(ROOT)).toEqual([]);
  });

  it("reports a queue, a cron or a migration the bench config lacks", async () => {
    const noProducer = await drift((b) => b.replace(/\[\[queues\.producers\]\]\nbinding = "LITTLE_DEAD_LETTERS"\n[^\n]*\n/, ""));
    expect(noProducer).toEqual([expect.stringMatching(/^queues: .*LITTLE_DEAD_LETTERS/)]);
    const noCron = await drift((b) => b.replace(/\[triggers\]\ncrons = [^\n]*\n/, ""));
    expect(noCron).toEqual([expect.stringMatching(/^triggers: /)]);
    const newMigration = await drift(
      (b) => b,
      (p) => `${p}\n[[migrations]]\ntag = "v2"\nnew_sqlite_classes = ["Another"]\n`,
    );
    expect(newMigration).toEqual([expect.stringMatching(/^migrations: .*"v2"/)]);
  });

  it("reports a binding added to production only, and a path that points elsewhere", async () => {
    const kv = await drift(
      (b) => b,
      (p) => `${p}\n[[kv_namespaces]]\nbinding = "CACHE"\nid = "x"\n`,
    );
    expect(kv).toEqual([expect.stringMatching(/^kv_namespaces: /)]);
    const otherMigrations = await drift((b) => b.replace('migrations_dir = "../migrations"', 'migrations_dir = "migrations"'));
    expect(otherMigrations).toEqual([expect.stringMatching(/^d1_databases: /)]);
  });

  it("lets the name, main, vars and the bench-only Workflow, objects and migrations differ", async () => {
    const extra = await drift(
      (b) =>
        `${b.replace('LITTLE_SANDBOX = "isolate"', 'LITTLE_SANDBOX = "isolate"\nBENCH_ONLY = "1"')}\n[[durable_objects.bindings]]\nname = "BENCH_MORE"\nclass_name = "BenchMore"\n\n[[migrations]]\ntag = "bench-v9"\nnew_sqlite_classes = ["BenchMore"]\n`,
    );
    expect(extra).toEqual([]);
  });

  it("the bench entry exports every class and entrypoint the production entry exports", async () => {
    // wrangler finds Durable Object classes and entrypoints by name in the entry module's exports;
    // the handlers (fetch, scheduled, queue) are checked by tsc in bench/worker/entry.ts.
    const exported = (text: string) =>
      new Set([...text.matchAll(/^export \{([^}]+)\} from "[^"]+";$/gm)].flatMap((m) => (m[1] as string).split(",").map((n) => n.trim())));
    const production = exported(await readFile(join(ROOT, "src/worker.ts"), "utf8"));
    const bench = exported(await readFile(join(ROOT, "bench/worker/entry.ts"), "utf8"));
    expect(production.size).toBeGreaterThan(0);
    expect([...production].filter((name) => !bench.has(name))).toEqual([]);
  });
});
