/**
 * The published shape, as an adopter gets it: `npm pack` once (prepack builds dist/), the tarball
 * unpacked into a fresh project's node_modules, then what a user does with it. The project lives
 * under test-output/ so the package's own dependencies resolve from this repository's
 * node_modules, as they would from an install.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPackLock } from "./support/pack-lock.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "node_modules/.bin");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; exports: Record<string, unknown> };
// npm, wrangler and tsc run on this Node (24); the CLI is also run on a Node 20 when the machine has one.
const PATH_24 = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
const NODE_20 = findNode(20);

type Run = { code: number | null; stdout: string; stderr: string };

function run(command: string, args: readonly string[], cwd: string, input?: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, PATH: PATH_24, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

/** A `node` of the given major version on PATH or in /usr/bin, other than this one. */
function findNode(major: number): string | undefined {
  const which = spawnSync("which", ["-a", "node"], { encoding: "utf8" }).stdout.split("\n");
  for (const candidate of [...which, "/usr/bin/node", "/usr/local/bin/node"]) {
    if (!candidate || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["-v"], { encoding: "utf8" }).stdout.trim();
    if (version.startsWith(`v${major}.`)) return candidate;
  }
  return undefined;
}

let work: string;
let project: string;
let pack: { filename: string; size: number; files: { path: string }[] };

beforeAll(async () => {
  mkdirSync(join(ROOT, "test-output"), { recursive: true });
  work = mkdtempSync(join(ROOT, "test-output", "package-"));
  const packed = await withPackLock(() => run("npm", ["pack", "--json", "--pack-destination", work], ROOT));
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}\n${packed.stdout}`);
  pack = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as (typeof pack)[])[0] as typeof pack;
  project = join(work, "adopter");
  const installed = join(project, "node_modules/little-workflow");
  mkdirSync(installed, { recursive: true });
  const untar = await run("tar", ["-xzf", join(work, pack.filename), "-C", installed, "--strip-components=1"], work);
  if (untar.code !== 0) throw new Error(untar.stderr);
  writeProject(project);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the package", () => {
  it("packs under 1 MB with only what users need: compiled JS, .d.ts, the bin, the D1 migrations, the LICENSE", () => {
    expect(pack.size).toBeLessThan(1_000_000);
    const paths = pack.files.map((f) => f.path);
    for (const needed of [
      "bin/little.js",
      "LICENSE",
      "package.json",
      "migrations/0000_init.sql",
      "sandbox/Dockerfile",
      "template/package.json",
      "template/wrangler.jsonc",
      "template/gitignore",
      "docs/deploy.md",
      "dist/src/cli/little.js",
      "dist/durable-objects/run.js",
    ]) {
      expect(paths).toContain(needed);
    }
    // Every exports target is in the tarball.
    for (const target of Object.values(PKG.exports)) {
      const files = typeof target === "string" ? [target] : Object.values(target as Record<string, string>);
      for (const file of files) expect(paths).toContain(file.replace(/^\.\//, ""));
    }
    const unexpected = paths.filter(
      (p) =>
        !(
          p.startsWith("dist/") ||
          p.startsWith("bin/") ||
          /^migrations\/[^/]+\.sql$/.test(p) ||
          // the project little init writes
          p.startsWith("template/") ||
          /^docs\/[^/]+\.md$/.test(p) ||
          ["LICENSE", "README.md", "package.json", "sandbox/Dockerfile"].includes(p)
        ),
    );
    expect(unexpected).toEqual([]);
    // The repository's own Worker and sample workflows are not the package.
    expect(paths.filter((p) => /^dist\/src\/(worker|workflows)\.|^dist\/src\/examples\//.test(p))).toEqual([]);
    // No TypeScript source outside the template (whose .ts files are the user's project).
    expect(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts") && !p.startsWith("template/"))).toEqual([]);
  });

  it("carries the docs its READMEs link to: every docs/ link of README.md and every node_modules/little-workflow path of the template's README", () => {
    const paths = new Set(pack.files.map((f) => f.path));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const linked = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1] as string);
    expect(linked.length).toBeGreaterThan(5);
    expect(linked.filter((p) => !paths.has(p))).toEqual([]);
    const template = readFileSync(join(ROOT, "template/README.md"), "utf8");
    const installed = [...template.matchAll(/node_modules\/little-workflow\/([^)`\s#]+)/g)].map((m) => m[1] as string);
    expect(installed).toContain("docs/testing.md");
    expect(installed.filter((p) => !p.endsWith("/") && !paths.has(p))).toEqual([]);
    // Links between the shipped docs resolve inside docs/ too.
    for (const doc of [...paths].filter((p) => p.startsWith("docs/"))) {
      const text = readFileSync(join(ROOT, doc), "utf8");
      const local = [...text.matchAll(/\]\(([a-z0-9-]+\.md)(?:#[^)]*)?\)/g)].map((m) => `docs/${m[1]}`);
      expect(
        local.filter((p) => !paths.has(p)),
        doc,
      ).toEqual([]);
    }
  });

  it("its .d.ts compile in a fresh TypeScript project that imports every subpath (a Worker with wrangler types; Node without them)", async () => {
    const types = await run(process.execPath, [join(BIN, "wrangler"), "types"], project);
    expect(types.code, types.stderr).toBe(0);
    // Both checks at once: each tsc takes seconds on its own.
    const [worker, node] = await Promise.all([
      run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], project),
      run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.node.json"], project),
    ]);
    // A config error (TS5xxx: a bad option, a missing file) has no file prefix and checks nothing:
    // it counts, as does a tsc that fails without printing any error.
    expect(ours({ code: 1, stdout: "error TS5058: The specified path does not exist: 'x'.\n", stderr: "" })).toHaveLength(1);
    expect(ours({ code: 2, stdout: "", stderr: "" })).toHaveLength(1);
    expect(ours(worker)).toEqual([]);
    expect(ours(node)).toEqual([]);
  }, 240_000);

  it("runs on this Node: little-workflow/testing runs a workflow on the offline models; the client calls over a fetch", async () => {
    const out = await run(process.execPath, ["nodeside/runtime.mjs"], project);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(runtimeReport(process.version));
  }, 120_000);

  it.skipIf(!NODE_20)(
    `runs on Node 20 too (${NODE_20 ?? "skipped: no Node 20 binary on this machine"})`,
    async () => {
      const out = await run(NODE_20 as string, ["nodeside/runtime.mjs"], project);
      expect(out.code, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual(runtimeReport(expect.stringMatching(/^v20\./)));
    },
    120_000,
  );

  it("wrangler bundles a Worker from the package's dist JS (dry run)", async () => {
    const bundled = await run(process.execPath, [join(BIN, "wrangler"), "deploy", "--dry-run", "--outdir", "out"], project);
    expect(bundled.code, bundled.stderr).toBe(0);
    expect(bundled.stdout).toContain("env.RUNS (RunObject)");
    const bundle = readFileSync(join(project, "out/index.js"), "utf8");
    expect(bundle).toMatch(/var RunObject = class extends/);
    expect(bundle).toContain("node_modules/little-workflow/dist/src/create-worker.js");
  }, 120_000);
});

/**
 * tsc's errors that are this package's: in the projects' files, the package's .d.ts, the configs,
 * or with no file at all (a config error), and a failing tsc that printed none. skipLibCheck is off
 * so the package's own .d.ts are checked; other libraries' declarations (ai, hono, capnweb need DOM
 * or Node types the projects leave out) are not this package's. worker-configuration.d.ts is where
 * wrangler types checks the entry's exports (the default export must be a handler, each other
 * export a class).
 */
function ours(r: Run): string[] {
  const lines = (r.stdout + r.stderr).split("\n").filter((l) => /error TS\d+/.test(l));
  if (r.code !== 0 && lines.length === 0) return [`tsc exited ${r.code} without an error line: ${r.stderr || r.stdout}`];
  return lines.filter(
    (l) =>
      /^(src\/|nodeside\/|node_modules\/little-workflow\/|worker-configuration\.d\.ts|tsconfig[^/(]*\.json)/.test(l) ||
      !/^[^\s(]+\(\d+,\d+\): error TS/.test(l),
  );
}

/** What nodeside/runtime.mjs prints when the package works on a Node. */
function runtimeReport(node: unknown) {
  return {
    node,
    status: "completed",
    output: { b: expect.any(String) },
    versionId: expect.stringMatching(/^wfver_/),
    events: { first: "RunRequested", last: "RunCompleted" },
    client: { status: "completed", url: "http://localhost:8787/v1/runs/run_1" },
    errorsAreLittleErrors: true,
  };
}

describe.skipIf(!NODE_20)(`the CLI from the tarball on Node 20 (${NODE_20 ?? "no Node 20 binary on this machine"})`, () => {
  const little = (args: string[], input?: string) =>
    run(NODE_20 as string, [join(project, "node_modules/little-workflow/bin/little.js"), ...args], project, input);

  it("little --version prints the package version", async () => {
    const out = await little(["--version"]);
    expect(out).toMatchObject({ code: 0, stdout: `${PKG.version}\n`, stderr: "" });
  });

  it("little validate: exit 0 on valid LWIR, 1 with findings on invalid, JSON either way", async () => {
    const valid = await little(["validate", join(ROOT, "test/fixtures/lwir/seed-summarize-ticket.json")]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, findings: [] });
    const invalid = await little(["validate", "-"], '{"kind":"Workflow"}');
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout).findings.length).toBeGreaterThan(0);
  });

  it("the repository's npm scripts stop at once on Node 20 with one line naming Node 24", async () => {
    const guard = await run(NODE_20 as string, [join(ROOT, "scripts/require-node.cjs")], ROOT);
    expect(guard.code).toBe(1);
    expect(guard.stdout).toBe("");
    expect(guard.stderr.trim().split("\n")).toHaveLength(1);
    expect(guard.stderr).toContain("needs Node 24");
  });
});

/** A user's Worker project: wrangler config, an entry built on createWorker, a Node-side test file. */
function writeProject(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "nodeside"), { recursive: true });
  // Without its own package.json the project would sit in this repository's package scope, and
  // "little-workflow" would resolve to the repository itself (a self-reference), not the tarball.
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "adopter", private: true, type: "module", dependencies: { "little-workflow": `file:${pack.filename}` } }),
  );
  writeFileSync(
    join(dir, "wrangler.jsonc"),
    JSON.stringify({
      name: "adopter",
      main: "src/index.ts",
      compatibility_date: "2026-11-01",
      compatibility_flags: ["nodejs_compat"],
      durable_objects: { bindings: [{ name: "RUNS", class_name: "RunObject" }] },
      migrations: [{ tag: "v1", new_sqlite_classes: ["RunObject"] }],
      d1_databases: [
        {
          binding: "DB",
          database_name: "adopter",
          database_id: "00000000-0000-4000-8000-000000000000",
          migrations_dir: "node_modules/little-workflow/migrations",
        },
      ],
      r2_buckets: [{ binding: "BLOBS", bucket_name: "adopter-blobs" }],
      worker_loaders: [{ binding: "LOADER" }],
      vars: { LITTLE_SANDBOX: "isolate" },
    }),
  );
  const compilerOptions = {
    target: "ES2024",
    lib: ["ES2024"],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    verbatimModuleSyntax: true,
  };
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "Bundler", types: ["./worker-configuration.d.ts"] },
      include: ["src", "worker-configuration.d.ts"],
    }),
  );
  writeFileSync(
    join(dir, "tsconfig.node.json"),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: "NodeNext", moduleResolution: "NodeNext", types: ["node"] },
      include: ["nodeside"],
    }),
  );
  writeFileSync(join(dir, "src/index.ts"), WORKER_ENTRY);
  writeFileSync(join(dir, "nodeside/workflow.test.ts"), NODE_TEST);
  writeFileSync(join(dir, "nodeside/runtime.mjs"), NODE_RUNTIME);
}

// Each @ts-expect-error fails the check if the line type-checks, i.e. if an import had resolved to `any`.
const WORKER_ENTRY = `import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow, model, toolWithEnv } from "little-workflow";
import { createClient } from "little-workflow/client";
import {
  createWorker,
  LittleWorkflowEntrypoint,
  NetworkGate,
  RunObject,
  SandboxContainer,
  type ToolContext,
} from "little-workflow/worker";

const envTool = toolWithEnv<Env>();
const sandboxKind = envTool({
  description: "Names the sandbox this Worker runs code in.",
  inputSchema: z.object({}),
  execute: async (_input, { context }) => {
    const mode: "isolate" = context.env.LITTLE_SANDBOX;
    // @ts-expect-error the env is typed: no such binding
    void context.env.NOT_A_BINDING;
    return { mode, key: context.idempotencyKey };
  },
});

const hello = defineWorkflow({
  id: "adopter.hello",
  description: "Say hello.",
  input: z.object({ name: z.string() }),
  output: z.object({ greeting: z.string() }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short answers." })],
  planner: { model: openai("gpt-5"), system: "You plan greetings." },
  tools: { sandboxKind },
});

const context: ToolContext<Env> | undefined = undefined;
void context;
// @ts-expect-error workflows is a list
createWorker<Env>({ workflows: hello });

// The client works inside a Worker too (fetch only).
const client = createClient({ baseUrl: "https://little.example", token: "t" });
void client.getRun;

export { LittleWorkflowEntrypoint, NetworkGate, RunObject, SandboxContainer };
export default createWorker<Env>({ workflows: [hello] });
`;

const NODE_TEST = `import { z } from "zod";
import { defineWorkflow, LittleError, model, WorkflowDefinitionError } from "little-workflow";
import { MemoryWorld, mockModel, modelsFor, OfflineLanguageModel, offlineModels, runWorkflow, type RunResult } from "little-workflow/testing";
import { createClient, LittleClientError } from "little-workflow/client";

const fast = new OfflineLanguageModel({ modelId: "gpt-4o-mini" });
const wf = defineWorkflow({
  id: "acme.echo",
  description: "Echo.",
  input: z.object({ a: z.string() }),
  output: z.object({ b: z.string() }),
  models: [model(fast, { description: "Fast." })],
  planner: { model: fast, system: "Plan." },
});

export async function check(): Promise<RunResult[]> {
  const mocked = new MemoryWorld({ models: modelsFor({ worker: mockModel({ b: "c" }) }), env: { X: 1 } });
  const offline = new MemoryWorld({ models: offlineModels() });
  // @ts-expect-error a world is required
  await runWorkflow(wf, { a: "x" }, {});
  const error: LittleError = new WorkflowDefinitionError("acme.echo", []);
  void error.code;
  const client = createClient({ baseUrl: "http://localhost:8787", token: "dev-token" });
  // @ts-expect-error startRun takes the workflow id first
  void client.startRun({ a: "x" });
  void LittleClientError;
  return [await runWorkflow(wf, { a: "x" }, { world: mocked }), await runWorkflow(wf, { a: "y" }, { world: offline })];
}
`;

// Run, not just type-checked: the package's JS under plain Node (no TypeScript, no vitest), as a
// user's script or test imports it. The client's call passes a signal, so the caller's signal and
// the timeout are combined (AbortSignal.any, or its fallback on Node < 20.3).
const NODE_RUNTIME = `import { z } from "zod";
import { defineWorkflow, LittleError, model, ModelUnavailableError, RunTerminatedError } from "little-workflow";
import { MemoryWorld, OfflineLanguageModel, offlineModels, runWorkflow } from "little-workflow/testing";
import { createClient } from "little-workflow/client";

const fast = new OfflineLanguageModel({ modelId: "gpt-4o-mini" });
const wf = defineWorkflow({
  id: "acme.echo",
  description: "Echo.",
  input: z.object({ a: z.string() }),
  output: z.object({ b: z.string() }),
  models: [model(fast, { description: "Fast." })],
  planner: { model: fast, system: "Plan." },
});
const world = new MemoryWorld({ models: offlineModels() });
const result = await runWorkflow(wf, { a: "x" }, { world });
const events = await world.events(result.runId);

const urls = [];
const client = createClient({
  baseUrl: "http://localhost:8787",
  token: "t",
  fetch: async (input) => {
    urls.push(String(input));
    return new Response(JSON.stringify({ run: { runId: "run_1", status: "completed" } }), { headers: { "content-type": "application/json" } });
  },
});
const { run } = await client.getRun("run_1", { signal: new AbortController().signal, timeoutMs: 5_000 });

console.log(JSON.stringify({
  node: process.version,
  status: result.status,
  output: result.output,
  versionId: result.versionId,
  events: { first: events[0]?.type, last: events.at(-1)?.type },
  client: { status: run.status, url: urls[0] },
  errorsAreLittleErrors: ModelUnavailableError.prototype instanceof LittleError && RunTerminatedError.prototype instanceof LittleError,
}));
`;
