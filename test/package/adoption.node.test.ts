/**
 * The adoption path, end to end and offline, as a new user walks it: `npm pack` the package,
 * `little init --package <tarball>` (the CLI from the tarball, on Node 20 when the machine has
 * one), `npm install` in the new project, its own `npm test`, `little deploy --dry-run`, then
 * `wrangler dev` of the project together with a second Worker of the user's that starts a run
 * through a service binding (LittleWorkflowEntrypoint) and sends a queue message. One run over
 * HTTP, one over RPC, one from the queue and one from a cron tick (`/__scheduled`), all completed.
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

/** The machine's Node 20, to run the tarball's CLI as an adopter on the older LTS would. */
function node20(): string {
  for (const candidate of [...spawnSync("which", ["-a", "node"], { encoding: "utf8" }).stdout.split("\n"), "/usr/bin/node"]) {
    if (candidate && existsSync(candidate) && spawnSync(candidate, ["-v"], { encoding: "utf8" }).stdout.startsWith("v20."))
      return candidate;
  }
  return process.execPath;
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
  // The CLI as the tarball has it, with no node_modules: init needs none.
  const cli = join(work, "cli");
  mkdirSync(cli);
  await run("tar", ["-xzf", tarball, "-C", cli, "--strip-components=1"], work);
  const init = await run(node20(), [join(cli, "bin/little.js"), "init", "acme-flows", "--package", tarball], work);
  if (init.code !== 0) throw new Error(`little init failed:\n${init.stderr}`);
  app = join(work, "acme-flows");
  const installed = await timed("npm install", () => run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], app));
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`);
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
    expect(dry.stdout).toContain("wrangler d1 migrations apply acme-flows --remote -c wrangler.deploy.json");
    expect(dry.stdout).toContain("env.LOADER");
    expect(dry.stdout).not.toContain("SandboxContainer");
    expect(dry.stdout).toContain("--dry-run: exiting now.");
    const config = JSON.parse(readFileSync(join(app, "wrangler.deploy.json"), "utf8"));
    expect(config.containers).toBeUndefined();
    expect(config.vars).toEqual({ LITTLE_SANDBOX: "isolate" });
  }, 120_000);

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

    const http = await fetch(`${url}/v1/workflows/${WORKFLOW}/runs?wait=30`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ input: { ticketId: "T-1", message: "I was charged twice." } }),
    });
    expect(http.status, devLog.slice(-3000)).toBe(200);
    const httpRun = ((await http.json()) as { run: { runId: string; status: string } }).run;
    expect(httpRun.status).toBe("completed");

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
        { binding: "LITTLE", service: "acme-flows", entrypoint: "LittleWorkflowEntrypoint" },
        { binding: "APP", service: "acme-flows" },
      ],
      queues: { producers: [{ binding: "RUNS_QUEUE", queue: "acme-flows-runs" }] },
    }),
  );
  writeFileSync(join(dir, "index.ts"), CALLER);
}

const CALLER = `import type { LittleWorkflowEntrypoint } from "little-workflow/worker";

type Env = { LITTLE: Service<LittleWorkflowEntrypoint>; APP: Fetcher; RUNS_QUEUE: Queue };

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const path = new URL(request.url).pathname;
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
  // wrangler's --test-scheduled serves /__scheduled on the primary Worker: hand the tick on.
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    // A number, as Cloudflare's own ticks carry (a Date here would arrive as a Date).
    await env.APP.scheduled({ cron: controller.cron, scheduledTime: controller.scheduledTime as unknown as Date });
  },
};
`;
