/**
 * A `wrangler dev` for the benchmarks: a snapshot of the committed sources (`git archive HEAD`, so
 * half-done edits in the working tree are neither measured nor reload workerd mid-measurement)
 * plus bench/ as it is on disk, a fresh state folder with the D1 migrations applied,
 * the offline model, a random dev token, and its own process group so `stop` reaches workerd too.
 * Mirrors test/e2e/support/wrangler-dev.ts, with the bench config and timings of the start.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { repositoryConfigDrift } from "./config-drift.ts";

export const ROOT = resolve(import.meta.dirname, "../..");
export const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
/** What the Worker's build reads, taken from the last commit. */
const COMMITTED_ENTRIES = ["src", "durable-objects", "migrations", "sandbox", "wrangler.toml", "package.json", "tsconfig.json"];
const START_TIMEOUT_MS = 120_000;
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

export type BenchDevOptions = {
  /** `bench` (bench/wrangler.bench.toml, the default) or `production` (wrangler.toml as deployed). */
  readonly config?: "bench" | "production";
  readonly vars?: Readonly<Record<string, string>>;
};

export type BenchDev = {
  readonly url: string;
  /** workerd's DevTools inspector (CPU profiles of the Worker: `Profiler.start` / `Profiler.stop`). */
  readonly inspectorPort: number;
  readonly devToken: string;
  /** `LITTLE_WEBHOOK_SECRET` (`whsec_…`): signs deliveries to `/v1/hooks/:workflowId` (tenant `dev`). */
  readonly webhookSecret: string;
  /** `LITTLE_ADMIN_TOKEN`: mints tenant tokens (`POST /v1/tokens`). */
  readonly adminToken: string;
  /** From spawning `wrangler dev` to the first 200 of `GET /v1/health`, in ms. */
  readonly startMs: number;
  /** `wrangler d1 migrations apply` before the start, in ms. */
  readonly migrateMs: number;
  /** The process group of `wrangler dev` (its workerd runs in it): for reading workerd's memory. */
  readonly processGroup: number | null;
  readonly logs: () => string;
  dispose(): Promise<void>;
};

/** Starts `wrangler dev` on a snapshot and resolves once `GET /v1/health` answers 200. */
export async function startBenchDev(options: BenchDevOptions = {}): Promise<BenchDev> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const tempDir = await mkdtemp(join(tmpdir(), "little-bench-"));
  const stateDir = join(tempDir, "state");
  const projectDir = join(tempDir, "project");
  const devToken = `dev_${randomBytes(16).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(24).toString("base64")}`;
  const adminToken = `admin_${randomBytes(16).toString("hex")}`;
  const url = `http://127.0.0.1:${port}`;
  const config = options.config === "production" ? "wrangler.toml" : "bench/wrangler.bench.toml";
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" };
  const vars: Record<string, string> = {
    LITTLE_ENV: "development",
    LITTLE_MODELS: "offline",
    LITTLE_DEV_TOKEN: devToken,
    LITTLE_WEBHOOK_SECRET: webhookSecret,
    LITTLE_ADMIN_TOKEN: adminToken,
    LITTLE_OFFLINE_LATENCY_MS: "0",
    // Throughput is measured with the start quotas enforced (their D1 writes are in the figures)
    // but out of reach: the defaults (600 starts a minute) would cap the trigger scenario.
    LITTLE_QUOTA_STARTS_PER_MINUTE: "1000000",
    LITTLE_QUOTA_CONCURRENT_RUNS: "1000000",
    ...options.vars,
  };
  let output = "";
  let child: ChildProcess | null = null;
  try {
    await mkdir(stateDir);
    await snapshot(projectDir);
    if (config !== "wrangler.toml") await warnOnConfigDrift(projectDir);
    const m0 = performance.now();
    await execFileText(
      process.execPath,
      [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir, "--config", config],
      projectDir,
      env,
    );
    const migrateMs = performance.now() - m0;
    const args = [
      WRANGLER,
      "dev",
      // No remote session for the (remote-only) AI binding: offline, and no login needed.
      "--local",
      "--config",
      config,
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
    const s0 = performance.now();
    const proc = spawn(process.execPath, args, { cwd: projectDir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    if (proc.pid !== undefined) LIVE_GROUPS.add(proc.pid);
    proc.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    proc.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    let exited: string | null = null;
    proc.once("exit", (code, signal) => {
      exited = `wrangler dev exited early (code ${code}, signal ${signal})`;
    });
    for (;;) {
      if (exited) throw new Error(`${exited}\n${output.slice(-4_000)}`);
      if (await healthy(url)) break;
      if (performance.now() - s0 > START_TIMEOUT_MS)
        throw new Error(`wrangler dev did not become healthy in time\n${output.slice(-4_000)}`);
      await sleep(50);
    }
    const startMs = performance.now() - s0;
    return {
      url,
      inspectorPort,
      devToken,
      webhookSecret,
      adminToken,
      startMs,
      migrateMs,
      processGroup: proc.pid ?? null,
      logs: () => output,
      async dispose() {
        if (child) await killGroup(child);
        child = null;
        await rm(tempDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child) await killGroup(child);
    await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
}

/** Warns when bench/wrangler.bench.toml no longer has wrangler.toml's bindings (config-drift.ts). */
export async function warnOnConfigDrift(dir: string): Promise<void> {
  const drift = await repositoryConfigDrift(dir);
  if (drift.length > 0)
    console.warn(
      `warning: bench/wrangler.bench.toml no longer mirrors wrangler.toml; the bench Worker is configured differently from the one deployed:\n  ${drift.join("\n  ")}`,
    );
}

/**
 * The committed sources, bench/ from disk, node_modules linked. `BENCH_REF=<commit>` measures an
 * earlier commit with today's bench/ (a before/after pair in one sitting); HEAD by default.
 */
export async function snapshot(dir: string): Promise<void> {
  await mkdir(dir);
  const ref = process.env.BENCH_REF ?? "HEAD";
  if (!/^[\w./~^-]+$/.test(ref)) throw new Error(`BENCH_REF is not a git revision: ${ref}`);
  await execFileText("sh", ["-c", `git archive --format=tar "$1" ${COMMITTED_ENTRIES.join(" ")} | tar -x -C "$0"`, dir, ref], ROOT);
  await cp(join(ROOT, "bench"), join(dir, "bench"), { recursive: true, filter: (src) => !src.includes("/bench/results") });
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function freePort(): Promise<number> {
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

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** SIGTERM to the process group, SIGKILL after 10 s. */
async function killGroup(proc: ChildProcess): Promise<void> {
  const pgid = proc.pid;
  if (pgid === undefined) return;
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const [signal, waitMs] of [
    ["SIGTERM", 10_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(-pgid, signal);
    } catch {
      break;
    }
    for (const until = Date.now() + waitMs; Date.now() < until && alive(); ) await sleep(100);
    if (!alive()) break;
  }
  LIVE_GROUPS.delete(pgid);
}

/** Runs a command to its end; rejects with its output when it fails. */
export function execFileText(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((done, fail) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${[file, ...args].join(" ")} failed: ${error.message}\n${`${stdout}\n${stderr}`.slice(-4_000)}`));
      else done(`${stdout}${stderr}`);
    });
  });
}
