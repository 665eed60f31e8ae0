/**
 * A real `wrangler dev` process for end-to-end tests in plain Node: a free port, a fresh state
 * folder with the D1 migrations applied (a copy of a template built once, see migratedState), the offline model, and random tokens and webhook secret.
 * The process is spawned in its own process group so that `stop` and `kill9` reach wrangler, its
 * esbuild and every workerd it started.
 *
 * By default wrangler runs on a snapshot of the Worker's sources (src, durable-objects,
 * migrations, wrangler.toml, … copied to a temp folder; node_modules linked): `wrangler dev`
 * watches its sources and reloads workerd whenever one changes, so an edit made while the suite
 * runs would restart the Worker under a test (dropping streams, re-running alarms) or serve
 * half-edited code. The snapshot also leaves out `.dev.vars`: every var comes from `--var`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
/** Process groups still running: killed if the test process exits without stopping them. */
const LIVE_GROUPS = new Set<number>();
process.once("exit", () => {
  for (const pgid of LIVE_GROUPS) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
/** What the Worker's build reads: copied into the snapshot. */
const SNAPSHOT_ENTRIES = ["src", "durable-objects", "migrations", "sandbox", "wrangler.toml", "package.json", "tsconfig.json"];
const HEALTH_POLL_MS = 200;
/** Starts tried when the chosen port was taken before wrangler could bind it. */
const PORT_ATTEMPTS = 3;
const HEALTH_TIMEOUT_MS = 60_000;
/** Only the tail of the output goes into error messages. */
const LOG_TAIL_CHARS = 8_000;

export type WranglerDevOptions = {
  /** `LITTLE_OFFLINE_LATENCY_MS`: how slow each offline model call is. */
  readonly offlineLatencyMs?: number;
  /** More `--var NAME:VALUE`s. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Run in the project folder itself instead of a snapshot of it (reloads on every edit). */
  readonly inPlace?: boolean;
  /** The `GET /v1/health` status that means "up" (default 200; 503 for a Worker that refuses its configuration). */
  readonly readyStatus?: number;
  /** `--test-scheduled`: `GET /__scheduled?cron=…` runs the Worker's scheduled handler. */
  readonly testScheduled?: boolean;
  /**
   * Another Worker entry (a path under the project, copied into the snapshot at the same place)
   * instead of wrangler.toml's `main`: a test wraps the Worker, e.g. with a route that sends to a queue.
   */
  readonly entry?: string;
  /** `--enable-containers`: the container sandbox on Docker (test/adapters/sandbox-container/container-worker.local.ts). */
  readonly enableContainers?: boolean;
};

export type WranglerDev = {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The `--persist-to` folder (D1, Durable Objects, alarms). */
  readonly stateDir: string;
  /** Where wrangler runs: the snapshot, or the project folder with `inPlace`. */
  readonly projectDir: string;
  /** `LITTLE_DEV_TOKEN`: the bearer for tenant `dev`. */
  readonly devToken: string;
  /** `LITTLE_ADMIN_TOKEN`: the bearer that may create tenant tokens. */
  readonly adminToken: string;
  /** `LITTLE_WEBHOOK_SECRET` (`whsec_…`); webhook runs belong to tenant `dev`. */
  readonly webhookSecret: string;
  /** Everything wrangler wrote to stdout and stderr so far, over every start. */
  readonly logs: string;
  /** SIGTERM to the process group; SIGKILL when it is not gone within 10 s. */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group (wrangler and workerd): a crash. */
  kill9(): Promise<void>;
  /** Starts wrangler dev again on the same port and state folder (stops it first if running). */
  restart(): Promise<void>;
  /** Stops the process and removes the state folder and the snapshot. */
  dispose(): Promise<void>;
};

/** Starts `wrangler dev` and resolves once `GET /v1/health` answers 200. */
export async function startWranglerDev(options: WranglerDevOptions = {}): Promise<WranglerDev> {
  let port = await freePort();
  let inspectorPort = await freePort();
  const tempDir = await mkdtemp(join(tmpdir(), "little-e2e-"));
  const stateDir = join(tempDir, "state");
  const projectDir = options.inPlace ? ROOT : join(tempDir, "project");
  const devToken = `dev_${randomBytes(16).toString("hex")}`;
  const adminToken = `admin_${randomBytes(16).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(24).toString("base64")}`;
  let url = `http://127.0.0.1:${port}`;
  let output = "";
  let child: ChildProcess | null = null;

  const vars: Record<string, string> = {
    // Local development (the shared webhook secret stands in for workflows' own); a test can
    // pass LITTLE_ENV: "production" in `vars` to see what a deployed Worker does.
    LITTLE_ENV: "development",
    LITTLE_MODELS: "offline",
    LITTLE_DEV_TOKEN: devToken,
    LITTLE_ADMIN_TOKEN: adminToken,
    LITTLE_WEBHOOK_SECRET: webhookSecret,
    LITTLE_WEBHOOK_TENANT: "dev",
    LITTLE_OFFLINE_LATENCY_MS: String(options.offlineLatencyMs ?? 0),
    ...options.vars,
  };
  const argsFor = () => [
    WRANGLER,
    "dev",
    ...(options.entry ? [options.entry] : []),
    ...(options.testScheduled ? ["--test-scheduled"] : []),
    ...(options.enableContainers ? ["--enable-containers"] : []),
    // The AI binding (Workers AI) is remote-only: --local keeps wrangler from opening a remote
    // session, which needs a Cloudflare login and fails offline. Workers AI calls then fail; tests don't make any.
    "--local",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    stateDir,
    "--show-interactive-dev-session=false",
    ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" };

  const launch = async () => {
    output += `\n----- wrangler dev on ${url} in ${projectDir} -----\n`;
    const proc = spawn(process.execPath, argsFor(), { cwd: projectDir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    const pgid = proc.pid;
    if (pgid !== undefined) {
      LIVE_GROUPS.add(pgid);
      proc.once("exit", () => {
        // The leader is gone; the group may live on until killGroup has seen it go.
        if (!groupAlive(pgid)) LIVE_GROUPS.delete(pgid);
      });
    }
    proc.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    proc.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<string>((done) =>
      proc.once("exit", (code, signal) => done(`wrangler dev exited early (code ${code}, signal ${signal})`)),
    );
    const started = Date.now();
    for (;;) {
      const early = await Promise.race([exited, sleep(HEALTH_POLL_MS).then(() => null)]);
      if (early) throw new Error(`${early}\n${tail(output)}`);
      if (await healthy(url, options.readyStatus ?? 200)) return;
      if (Date.now() - started > HEALTH_TIMEOUT_MS) {
        await killGroup(proc, "SIGKILL", 5_000);
        throw new Error(
          `wrangler dev did not answer GET /v1/health with ${options.readyStatus ?? 200} within ${HEALTH_TIMEOUT_MS} ms\n${tail(output)}`,
        );
      }
    }
  };

  try {
    await mkdir(stateDir);
    if (!options.inPlace) await snapshot(projectDir, options.entry);
    // A copy of the migrated template instead of `wrangler d1 migrations apply` per start (~4 s each).
    await cp(await migratedState(env), stateDir, { recursive: true });
    // freePort's port can be taken by another process (the node project runs files in parallel)
    // before wrangler binds it: then start again on fresh ports.
    for (let attempt = 1; ; attempt++) {
      try {
        await launch();
        break;
      } catch (error) {
        if (attempt >= PORT_ATTEMPTS || !String(error).includes("Address already in use")) throw error;
        if (child) await killGroup(child, "SIGKILL", 5_000);
        port = await freePort();
        inspectorPort = await freePort();
        url = `http://127.0.0.1:${port}`;
      }
    }
  } catch (error) {
    if (child) await killGroup(child, "SIGKILL", 5_000);
    await rm(tempDir, { recursive: true, force: true });
    throw error;
  }

  const stop = async () => {
    if (!child) return;
    const proc = child;
    child = null;
    if (!(await killGroup(proc, "SIGTERM", 10_000))) await killGroup(proc, "SIGKILL", 5_000);
  };

  return {
    url,
    port,
    stateDir,
    projectDir,
    devToken,
    adminToken,
    webhookSecret,
    get logs() {
      return output;
    },
    stop,
    async kill9() {
      if (!child) return;
      const proc = child;
      child = null;
      await killGroup(proc, "SIGKILL", 5_000);
    },
    async restart() {
      await stop();
      await launch();
    },
    async dispose() {
      await stop();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on right now: bind port 0, read it, close. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? done(port) : fail(new Error("no free port"))));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function healthy(url: string, status: number): Promise<boolean> {
  try {
    const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status === status;
  } catch {
    return false;
  }
}

/**
 * Sends `signal` to the child's process group and waits until no process of the group is left
 * (or `timeoutMs` passes). Resolves true when the group is gone.
 */
async function killGroup(proc: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
  const pgid = proc.pid;
  if (pgid === undefined) return true;
  try {
    process.kill(-pgid, signal);
  } catch {
    LIVE_GROUPS.delete(pgid);
    return true; // no such group: already gone
  }
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!groupAlive(pgid)) {
      LIVE_GROUPS.delete(pgid);
      return true;
    }
    await sleep(100);
  }
  if (groupAlive(pgid)) return false;
  LIVE_GROUPS.delete(pgid);
  return true;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** This process's template, once its build has started (every start in the process awaits the same one). */
let templateState: Promise<string> | null = null;

/**
 * A `--persist-to` folder with the D1 migrations applied and nothing else, built once and then
 * copied for every start: applying them is a separate wrangler process of ~4 s. The folder lives in
 * the OS temp folder under a hash of what its content depends on (migrations/*.sql, the D1 section
 * of wrangler.toml, wrangler's version), so that the test files running in parallel processes share
 * one; a change to any migration makes a new one. Built in a folder of its own and renamed into
 * place, so a reader never sees half of it; when two processes build at once, the loser discards its copy.
 */
function migratedState(env: NodeJS.ProcessEnv): Promise<string> {
  templateState ??= buildMigratedState(env).catch((error: unknown) => {
    templateState = null;
    throw error;
  });
  return templateState;
}

async function buildMigratedState(env: NodeJS.ProcessEnv): Promise<string> {
  const hash = createHash("sha256");
  const migrations = (await readdir(join(ROOT, "migrations"))).filter((name) => name.endsWith(".sql")).sort();
  for (const name of migrations) hash.update(`${name}\0`).update(await readFile(join(ROOT, "migrations", name)));
  hash.update(await readFile(join(ROOT, "wrangler.toml")));
  hash.update(await readFile(join(ROOT, "node_modules/wrangler/package.json")));
  const template = join(tmpdir(), `little-e2e-d1-${hash.digest("hex").slice(0, 20)}`);
  if (await exists(template)) return template;
  const build = await mkdtemp(join(tmpdir(), "little-e2e-d1-build-"));
  try {
    // wrangler reads the D1 binding and migrations_dir from wrangler.toml, and checks that the
    // containers' Dockerfile it names exists.
    const project = join(build, "project");
    await mkdir(project);
    for (const entry of ["wrangler.toml", "migrations", "sandbox", "package.json"]) {
      await cp(join(ROOT, entry), join(project, entry), { recursive: true });
    }
    await symlink(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
    const state = join(build, "state");
    await run(process.execPath, [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], project, env);
    try {
      await rename(state, template);
    } catch (error) {
      // Another process renamed its copy first: use that one.
      if (!(await exists(template))) throw error;
    }
    return template;
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Copies what the Worker's build reads into `dir`, and links node_modules. */
async function snapshot(dir: string, extra?: string): Promise<void> {
  await mkdir(dir);
  for (const entry of [...SNAPSHOT_ENTRIES, ...(extra ? [extra] : [])]) await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    execFile(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${[file, ...args].join(" ")} failed: ${error.message}\n${tail(`${stdout}\n${stderr}`)}`));
      else done();
    });
  });
}

function tail(text: string): string {
  return text.length > LOG_TAIL_CHARS ? `…${text.slice(-LOG_TAIL_CHARS)}` : text;
}
