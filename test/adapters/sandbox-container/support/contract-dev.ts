/**
 * Starts `wrangler dev --enable-containers` on the contract worker (wrangler.contract.toml) for
 * the Node-side container contract run, in its own process group so `stop` reaches wrangler,
 * workerd and the container runtime's children. The first start builds the image (minutes).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../../../..");
const CONFIG = join(import.meta.dirname, "wrangler.contract.toml");
const READY_TIMEOUT_MS = 15 * 60_000;

/** Why the real-container run cannot happen here, or null when it can. */
export async function containerRunUnavailable(): Promise<string | null> {
  if (process.env.LITTLE_SANDBOX_CONTAINER_TESTS !== "1")
    return "set LITTLE_SANDBOX_CONTAINER_TESTS=1 where a Docker engine runs to start real containers with wrangler dev --enable-containers";
  const info = await new Promise<string | null>((done) =>
    execFile("docker", ["info", "--format", "{{.ServerVersion}}"], { timeout: 20_000 }, (error, _out, stderr) =>
      done(error ? ((stderr.trim() || error.message).split("\n")[0] ?? "docker info failed") : null),
    ),
  );
  return info === null ? null : `LITTLE_SANDBOX_CONTAINER_TESTS=1 but no Docker engine is reachable: ${info}`;
}

export type ContractDev = { readonly url: string; readonly logs: () => string; stop(): Promise<void> };

/**
 * `dockerHost` overrides `WRANGLER_DOCKER_HOST` for this worker only (scripts/test-containers.sh
 * runs one Docker API proxy that adds capabilities and one that passes Docker's defaults).
 */
export async function startContractWorker(options: { dockerHost?: string } = {}): Promise<ContractDev> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      "-c",
      CONFIG,
      "--enable-containers",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...(options.dockerHost ? { WRANGLER_DOCKER_HOST: options.dockerHost } : {}),
        WRANGLER_SEND_METRICS: "false",
        NO_COLOR: "1",
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const stop = async () => {
    if (child.pid === undefined || child.exitCode !== null) return;
    const gone = new Promise((done) => child.once("exit", done));
    process.kill(-child.pid, "SIGTERM");
    await Promise.race([gone, new Promise((done) => setTimeout(done, 10_000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  };
  const started = Date.now();
  while (Date.now() - started < READY_TIMEOUT_MS) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output.slice(-8_000)}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, logs: () => output, stop };
    await new Promise((done) => setTimeout(done, 500));
  }
  await stop();
  throw new Error(`wrangler dev did not answer within ${READY_TIMEOUT_MS} ms:\n${output.slice(-8_000)}`);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}
