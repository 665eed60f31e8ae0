/**
 * The adoption path, end to end and offline, as a new user walks it: `npm pack` the package, the
 * README's "Start a project" commands run verbatim (`npx -y --package=<tarball> little init
 * my-flows`, `npm install`), the project's own `npm test`, `little deploy --dry-run`, then a
 * workflow of the user's own with a tool (`notes.save` and `saveNote`, written here as a user
 * would) and `wrangler dev` of the project together with a second Worker of the user's that starts
 * a run through a service binding (LittleWorkflowEntrypoint) and sends a queue message. The
 * README's "Run it" commands run verbatim (only the port differs); one run over HTTP, one over RPC,
 * one from the queue and one from a cron tick (`/__scheduled`), all completed, and the user's
 * workflow run offline calls its tool with the run's input and answers the tool's result.
 *
 * About 45 s with a warm npm cache, 2 to 5 minutes with a cold one (npm pack builds dist/, npm
 * install, wrangler). It is part of `npm test`: the path a new user takes is the one CI must not
 * break. LITTLE_ADOPTION=0 skips it for a quick local run; `npm run test:adoption` runs it alone.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPackLock } from "./support/pack-lock.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const ENABLED = process.env.LITTLE_ADOPTION !== "0";
const PATH_24 = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
const ENV = { ...process.env, PATH: PATH_24, NO_COLOR: "1", FORCE_COLOR: "0", WRANGLER_SEND_METRICS: "false" };
const WORKFLOW = "support.triage-ticket";
const NAME = "my-flows";
const CRON = "0 8 * * MON-FRI";

type Run = { code: number | null; stdout: string; stderr: string };
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
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
  });
}

/** The first ```sh block under a README heading that contains `containing` (comment lines kept: they can be commands too). */
function readmeBlock(heading: string, containing = ""): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`\n## ${heading}\n`);
  const section = readme.slice(at + heading.length + 5).split("\n## ")[0] ?? "";
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes(containing));
  if (at === -1 || block === undefined) throw new Error(`README.md has no sh block under "## ${heading}" with "${containing}"`);
  return block;
}

/** The JSON document at the start of `text` (curl prints no newline after it). */
function leadingJson(text: string): unknown {
  for (let end = text.indexOf("}"); end !== -1; end = text.indexOf("}", end + 1)) {
    try {
      return JSON.parse(text.slice(0, end + 1));
    } catch {
      // not the whole document yet
    }
  }
  throw new Error(`no JSON document at the start of:\n${text}`);
}

/** A README block run by sh, each command echoed, stopping at the first that fails. */
function sh(script: string, cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-e", "-x", "-c", script], { cwd, env: { ...ENV, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

let work: string;
let app: string;
let tarball: string;
let dev: ChildProcess | undefined;
let devLog = "";
let url: string;
let token: string;
const timings: Record<string, number> = {};

async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await step();
  } finally {
    timings[label] = Date.now() - started;
  }
}

beforeAll(async () => {
  if (!ENABLED) return;
  work = mkdtempSync(join(tmpdir(), "little-adoption-"));
  const packed = await timed("npm pack", () => withPackLock(() => run("npm", ["pack", "--json", "--pack-destination", work], ROOT)));
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const pack = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string; size: number }[];
  tarball = join(work, pack[0]?.filename as string);
  timings["tarball bytes"] = pack[0]?.size ?? 0;
  // The README's commands as written, from a local build: its commented line names the tarball
  // `npm pack` made (the only difference from the registry line is the package spec).
  const start = readmeBlock("Start a project")
    .replace(/^#\s+(npx .*)$/m, "$1")
    .replace(/^npx -y --package=little-workflow .*\n/m, "");
  expect(start).toContain(`--package=./${pack[0]?.filename}`);
  const started = await timed("README: init + npm install", () =>
    sh(start, work, { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" }),
  );
  if (started.code !== 0) throw new Error(`the README's "Start a project" commands failed:\n${started.stdout}\n${started.stderr}`);
  app = join(work, NAME);
  writeNotesWorkflow(app);
  token = /LITTLE_DEV_TOKEN=(\S+)/.exec(readFileSync(join(app, ".dev.vars"), "utf8"))?.[1] as string;
}, 600_000);

afterAll(async () => {
  if (dev?.pid !== undefined) {
    try {
      process.kill(-dev.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await sleep(1_000);
  }
  if (work) rmSync(work, { recursive: true, force: true });
  if (ENABLED) console.log(`adoption timings (ms): ${JSON.stringify(timings)}`);
});

describe.skipIf(!ENABLED)("adopting little-workflow from its tarball", () => {
  it("the scaffolded project installs the tarball, its own npm test passes offline, and it type-checks", async () => {
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
    expect(pkg.dependencies["little-workflow"]).toBe(`file:${tarball}`);
    expect(existsSync(join(app, "node_modules/little-workflow/migrations/0000_init.sql"))).toBe(true);
    const tested = await timed("npm test", () => run("npm", ["test"], app));
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/Tests\s+2 passed/);
    // The project type-checks against the package's .d.ts (wrangler types, then tsc).
    const typed = await timed("npm run typecheck", () => run("npm", ["run", "typecheck"], app));
    expect(typed.code, typed.stdout + typed.stderr).toBe(0);
  }, 180_000);

  it("npm run deploy -- --sandbox isolate --dry-run: every step printed, wrangler bundles a config with Worker Loader and no container", async () => {
    const dry = await timed("deploy dry run", () => run("npm", ["run", "deploy", "--", "--sandbox", "isolate", "--dry-run"], app));
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    for (const step of [
      "secrets: would check LITTLE_SECRETS_KEY, LITTLE_ADMIN_TOKEN, OPENAI_API_KEY",
      "wrangler d1 list --json",
      "wrangler r2 bucket list",
    ]) {
      expect(dry.stdout).toContain(step);
    }
    expect(dry.stdout).toContain(`wrangler d1 migrations apply ${NAME} --remote -c wrangler.deploy.json`);
    expect(dry.stdout).toContain("env.LOADER");
    expect(dry.stdout).not.toContain("SandboxContainer");
    expect(dry.stdout).toContain("--dry-run: exiting now.");
    const config = JSON.parse(readFileSync(join(app, "wrangler.deploy.json"), "utf8"));
    expect(config.containers).toBeUndefined();
    expect(config.vars).toEqual({ LITTLE_SANDBOX: "isolate" });
    // Without --secret too: the project depends on @ai-sdk/openai, so its models need OPENAI_API_KEY.
    const plain = await run("npx", ["little", "deploy", "--sandbox", "isolate", "--dry-run"], app);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(plain.stdout).toContain("secrets: would check LITTLE_SECRETS_KEY, LITTLE_ADMIN_TOKEN, OPENAI_API_KEY");
  }, 180_000);

  it.skipIf(spawnSync("docker", ["info"]).status === 0)(
    "--sandbox container without Docker stops at once, naming Docker and the isolate option",
    async () => {
      const dry = await run("npm", ["run", "deploy", "--", "--sandbox", "container", "--dry-run"], app);
      expect(dry.code).not.toBe(0);
      expect(dry.stderr).toContain("error (deploy_docker_missing)");
      expect(dry.stderr).toContain("--sandbox isolate");
    },
    60_000,
  );

  it("wrangler dev: a run over HTTP, one through a service binding, one from a queue message, one from a cron tick; all complete", async () => {
    writeCaller(join(app, "caller"));
    // Offline models, stated: no provider key is read even if the machine has one.
    writeFileSync(
      join(app, ".dev.vars"),
      readFileSync(join(app, ".dev.vars"), "utf8").replace("LITTLE_MODELS=auto", "LITTLE_MODELS=offline"),
    );
    const state = join(work, "state");
    const wrangler = join(app, "node_modules/wrangler/bin/wrangler.js");
    const migrated = await run(process.execPath, [wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], app);
    expect(migrated.code, migrated.stderr).toBe(0);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    // The caller is the primary Worker (it has the port); the project runs beside it in the same
    // process, so the service binding and the queue are local.
    dev = spawn(
      process.execPath,
      [
        wrangler,
        "dev",
        "-c",
        "caller/wrangler.jsonc",
        "-c",
        "wrangler.jsonc",
        "--test-scheduled",
        "--port",
        String(port),
        "--ip",
        "127.0.0.1",
        "--inspector-port",
        String(await freePort()),
        "--persist-to",
        state,
        "--show-interactive-dev-session=false",
      ],
      { cwd: app, env: ENV, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    dev.stdout?.on("data", (d) => {
      devLog += d;
    });
    dev.stderr?.on("data", (d) => {
      devLog += d;
    });
    await waitFor(
      async () => (await fetch(`${url}/v1/health`).catch(() => undefined))?.status === 200,
      90_000,
      "wrangler dev to answer /v1/health",
    );
    timings["wrangler dev ready"] = Date.now() - started;
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

    // The README's "Run it" commands, as written but for the port this test was given.
    const readme = await sh(readmeBlock("Run it", "curl").replaceAll("localhost:8787", `127.0.0.1:${port}`), app, { LITTLE_URL: url });
    expect(readme.code, readme.stderr + devLog.slice(-3000)).toBe(0);
    const httpRun = (leadingJson(readme.stdout) as { run: { runId: string; status: string } }).run;
    expect(httpRun.status).toBe("completed");
    expect(readme.stdout).toContain(httpRun.runId);

    // The user's own workflow, offline: the planner calls saveNote with the run's input, and the
    // output is the tool's result, not an invented one.
    const note = await fetch(`${url}/v1/workflows/notes.save/runs?wait=30`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ input: { title: "Groceries", text: "milk, eggs" } }),
    });
    expect(note.status, devLog.slice(-3000)).toBe(200);
    const noteRun = ((await note.json()) as { run: { runId: string; status: string; output: unknown } }).run;
    expect(noteRun).toMatchObject({ status: "completed", output: { noteId: "note:groceries", length: 10 } });
    const events = await fetch(`${url}/v1/runs/${noteRun.runId}/events?limit=500`, { headers: auth });
    const steps = ((await events.json()) as { events: { type: string; payload: { stepPath?: string; output?: unknown } }[] }).events.filter(
      (e) => e.type === "StepSucceeded",
    );
    expect(steps.map((e) => [e.payload.stepPath, e.payload.output])).toEqual([
      ["c1/save_note", { noteId: "note:groceries", length: 10 }],
      ["c1/generate", { noteId: "note:groceries", length: 10 }],
    ]);

    const rpc = await fetch(`${url}/rpc/start`, {
      method: "POST",
      body: JSON.stringify({ workflowId: WORKFLOW, input: { ticketId: "T-2", message: "Where is my invoice?" } }),
    });
    expect(rpc.status, await rpc.clone().text()).toBe(200);
    const rpcRun = (await rpc.json()) as { runId: string; status: string; output: { priority: string } };
    expect(rpcRun).toMatchObject({ status: "completed", output: { priority: expect.any(String) } });

    const sent = await fetch(`${url}/queue/send`, {
      method: "POST",
      body: JSON.stringify({ workflowId: WORKFLOW, input: { ticketId: "T-3", message: "Queued." } }),
    });
    expect(sent.status).toBe(200);
    const tick = await fetch(`${url}/__scheduled?cron=${encodeURIComponent(CRON)}`);
    expect(tick.status, await tick.text()).toBe(200);

    let runs: { runId: string; status: string; triggerKind: string }[] = [];
    await waitFor(
      async () => {
        const listed = await fetch(`${url}/v1/runs?workflow=${WORKFLOW}`, { headers: auth });
        runs = ((await listed.json()) as { runs: typeof runs }).runs;
        return runs.length === 4 && runs.every((r) => r.status === "completed");
      },
      30_000,
      "four completed runs",
    );
    expect(runs.map((r) => r.triggerKind).sort()).toEqual(["cron", "http", "programmatic", "queue"]);

    // A refused RPC start reaches the caller as the named error, fields and all (docs/client.md).
    const refused = await fetch(`${url}/rpc/refused`);
    expect(await refused.json()).toMatchObject({ name: "LittleRpcError", code: "workflow_not_found", status: 404 });
    // A message that can never start is dead-lettered with its cause, and a consumer reads it.
    await fetch(`${url}/queue/send`, { method: "POST", body: JSON.stringify({ workflowId: "no.such-workflow", input: {} }) });
    let letters: { kind: string; cause: string; body: unknown }[] = [];
    await waitFor(
      async () => {
        letters = (await (await fetch(`${url}/dead-letters`)).json()) as typeof letters;
        return letters.length > 0;
      },
      30_000,
      "the dead letter at the caller's consumer",
    );
    expect(letters[0]).toMatchObject({ kind: "little.dead-letter", cause: "workflow_not_found", body: { workflowId: "no.such-workflow" } });
    expect(runs.find((r) => r.triggerKind === "programmatic")?.runId).toBe(rpcRun.runId);
    expect(runs.find((r) => r.triggerKind === "http")?.runId).toBe(httpRun.runId);
  }, 240_000);
});

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${devLog.slice(-4000)}`);
    await sleep(250);
  }
}

/** A second Worker of the user's: it binds the project's entrypoint and its runs queue. */
function writeCaller(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "wrangler.jsonc"),
    JSON.stringify({
      name: "caller",
      main: "index.ts",
      compatibility_date: "2026-11-01",
      services: [
        { binding: "LITTLE", service: NAME, entrypoint: "LittleWorkflowEntrypoint" },
        { binding: "APP", service: NAME },
      ],
      queues: {
        producers: [{ binding: "RUNS_QUEUE", queue: `${NAME}-runs` }],
        // The dead-letter consumer docs/triggers.md describes ("Reading dead letters").
        consumers: [{ queue: `${NAME}-dead-letters`, max_batch_timeout: 1 }],
      },
    }),
  );
  writeFileSync(join(dir, "index.ts"), CALLER);
}

const CALLER = `import type { LittleWorkflowEntrypoint } from "little-workflow/worker";

type Env = { LITTLE: Service<LittleWorkflowEntrypoint>; APP: Fetcher; RUNS_QUEUE: Queue };
type DeadLetter = { kind: "little.dead-letter"; cause: string; message: string; body: unknown };
const letters: DeadLetter[] = [];

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/rpc/refused") {
      try {
        await env.LITTLE.startRun("no.such-workflow", {});
        return Response.json({ thrown: false });
      } catch (error) {
        const e = error as { name?: string; code?: string; status?: number; message?: string };
        return Response.json({ name: e.name, code: e.code, status: e.status, message: e.message });
      }
    }
    if (path === "/dead-letters") return Response.json(letters);
    if (path === "/rpc/start") {
      const { workflowId, input } = (await request.json()) as { workflowId: string; input: unknown };
      return Response.json(await env.LITTLE.startRun(workflowId, input, { wait: 30 }));
    }
    if (path === "/queue/send") {
      await env.RUNS_QUEUE.send(await request.json());
      return Response.json({ sent: true });
    }
    // Everything else is the project's own HTTP API, passed through unchanged.
    return env.APP.fetch(request);
  },
  async queue(batch: MessageBatch<DeadLetter>): Promise<void> {
    for (const m of batch.messages) {
      letters.push(m.body);
      m.ack();
    }
  },
  // wrangler's --test-scheduled serves /__scheduled on the primary Worker: hand the tick on.
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    // A number, as Cloudflare's own ticks carry (a Date here would arrive as a Date).
    await env.APP.scheduled({ cron: controller.cron, scheduledTime: controller.scheduledTime as unknown as Date });
  },
};
`;

/**
 * A workflow and a tool of the user's own, registered as the README says (`workflows` and `tools`
 * in src/index.ts). The tool derives its answer from its input, so the run's output shows that
 * the tool got the run's input.
 */
function writeNotesWorkflow(dir: string): void {
  writeFileSync(
    join(dir, "src/tools/save-note.ts"),
    `import { tool } from "little-workflow";
import { z } from "zod";

export const saveNote = tool({
  description: "Save a note; answers its id and its length in characters.",
  inputSchema: z.object({ title: z.string(), text: z.string() }),
  outputSchema: z.object({ noteId: z.string(), length: z.number().int() }),
  execute: async ({ title, text }) => ({ noteId: \`note:\${title.toLowerCase()}\`, length: text.length }),
});
`,
  );
  writeFileSync(
    join(dir, "src/workflows/save-note.ts"),
    `import { openai } from "@ai-sdk/openai";
import { defineWorkflow, model } from "little-workflow";
import { z } from "zod";

export const saveNoteFlow = defineWorkflow({
  id: "notes.save",
  description: "Save a note with the saveNote tool and answer its id and length.",
  input: z.object({ title: z.string(), text: z.string() }),
  output: z.object({ noteId: z.string(), length: z.number() }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: { model: openai("gpt-5"), system: "You design note-taking workflows." },
  globalTools: ["saveNote"],
});
`,
  );
  const index = join(dir, "src/index.ts");
  const source = readFileSync(index, "utf8");
  const registered = source
    .replace(
      'import { triageTicket } from "./workflows/triage-ticket.ts";',
      'import { triageTicket } from "./workflows/triage-ticket.ts";\nimport { saveNoteFlow } from "./workflows/save-note.ts";\nimport { saveNote } from "./tools/save-note.ts";',
    )
    .replace(
      "workflows: [triageTicket], tools: { lookupCustomer }",
      "workflows: [triageTicket, saveNoteFlow], tools: { lookupCustomer, saveNote }",
    );
  if (!registered.includes("saveNoteFlow], tools: { lookupCustomer, saveNote }"))
    throw new Error(`src/index.ts no longer reads as the README shows:\n${source}`);
  writeFileSync(index, registered);
}
