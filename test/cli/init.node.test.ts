/**
 * `little init` as a user runs it (the CLI's source in a child process, never a stale dist/): the
 * project it writes, and the refusal of a directory that is not empty. Installing and running the
 * project is test/package/adoption.node.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonc } from "../../src/cli/deploy/jsonc.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const work = mkdtempSync(join(tmpdir(), "little-init-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const little = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(ROOT, "src/cli/little.ts"), ...args], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const devVars = (dir: string) =>
  Object.fromEntries(
    readFileSync(join(dir, ".dev.vars"), "utf8")
      .split("\n")
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );

describe("little init", () => {
  it("scaffolds a Worker project on the package: config, workflow, tool, test, .dev.vars with generated keys", () => {
    const out = little("init", "My Workflows");
    expect(out.code, out.stderr).toBe(0);
    const dir = join(work, "My Workflows");
    const files = spawnSync("find", [".", "-type", "f"], { cwd: dir, encoding: "utf8" }).stdout.split("\n").filter(Boolean).sort();
    expect(files).toEqual([
      "./.dev.vars",
      "./.gitignore",
      "./README.md",
      "./package.json",
      "./src/index.ts",
      "./src/tools/lookup-customer.ts",
      "./src/workflows/triage-ticket.ts",
      "./test/triage-ticket.test.ts",
      "./tsconfig.json",
      "./vitest.config.ts",
      "./wrangler.jsonc",
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.name).toBe("my-workflows");
    expect(pkg.dependencies).toEqual({
      "little-workflow": `^${PKG.version}`,
      "@ai-sdk/openai": PKG.dependencies["@ai-sdk/openai"],
      zod: PKG.dependencies.zod,
    });
    expect(pkg.devDependencies).toEqual({
      "@types/node": PKG.devDependencies["@types/node"],
      typescript: PKG.devDependencies.typescript,
      vitest: PKG.devDependencies.vitest,
      wrangler: PKG.devDependencies.wrangler,
    });
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["dev", "test", "deploy"]));
    // wrangler types on install (plain tsc needs worker-configuration.d.ts); migrations summed up by
    // little dev; npm 11's install-scripts approval for wrangler's two binaries recorded.
    expect(pkg.scripts).toMatchObject({ postinstall: "wrangler types", dev: "little dev" });
    expect(pkg.allowScripts).toEqual({ esbuild: true, workerd: true });

    const config = parseJsonc(readFileSync(join(dir, "wrangler.jsonc"), "utf8")) as Record<string, unknown>;
    expect(config).toMatchObject({
      name: "my-workflows",
      main: "src/index.ts",
      d1_databases: [{ binding: "DB", database_name: "my-workflows", migrations_dir: "node_modules/little-workflow/migrations" }],
      r2_buckets: [{ binding: "BLOBS", bucket_name: "my-workflows-blobs" }],
      worker_loaders: [{ binding: "LOADER" }],
      vars: { LITTLE_SANDBOX: "isolate" },
      triggers: { crons: ["0 8 * * MON-FRI"] },
      queues: { consumers: [{ queue: "my-workflows-runs", dead_letter_queue: "my-workflows-dead-letters" }] },
      observability: { enabled: true },
    });
    expect(config.containers).toBeUndefined();
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".dev.vars");

    const vars = devVars(dir);
    expect(vars.LITTLE_ENV).toBe("development");
    expect(vars.LITTLE_DEV_TOKEN).toMatch(/^dev_[0-9a-f]{32}$/);
    expect(out.stdout).toContain(vars.LITTLE_DEV_TOKEN);
    expect(Buffer.from(vars.LITTLE_SECRETS_KEY ?? "", "base64")).toHaveLength(32);
    // Another project gets its own keys.
    expect(little("init", "other").code).toBe(0);
    const other = devVars(join(work, "other"));
    expect(other.LITTLE_SECRETS_KEY).not.toBe(vars.LITTLE_SECRETS_KEY);
    expect(other.LITTLE_DEV_TOKEN).not.toBe(vars.LITTLE_DEV_TOKEN);
  });

  it("--package with a local tarball writes an absolute file: dependency; a missing one is refused", () => {
    writeFileSync(join(work, "little-workflow-9.9.9.tgz"), "");
    expect(little("init", "local", "--package", "./little-workflow-9.9.9.tgz").code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(work, "local/package.json"), "utf8"));
    expect(pkg.dependencies["little-workflow"]).toBe(`file:${join(work, "little-workflow-9.9.9.tgz")}`);
    const missing = little("init", "missing", "--package", "./nope.tgz");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--package ./nope.tgz: no such file");
  });

  it("refuses a directory that is not empty, in one line with a stable code, and writes nothing", () => {
    mkdirSync(join(work, "taken"));
    writeFileSync(join(work, "taken/notes.txt"), "mine");
    const out = little("init", "taken");
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr.trim().split("\n")).toEqual([
      "error (init_target_not_empty): little init: taken is not empty; choose a new or empty directory",
    ]);
    expect(spawnSync("ls", ["-A", join(work, "taken")], { encoding: "utf8" }).stdout.trim()).toBe("notes.txt");
    const json = little("init", "taken", "--json");
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: "init_target_not_empty", message: expect.stringContaining("not empty") } });
  });
});
