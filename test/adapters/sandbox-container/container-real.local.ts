import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { smokeCheck } from "../../../src/cli/deploy/sandbox-smoke-check.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { CodePolicy, RunCodeRequest, SandboxSession } from "../../../src/ports/sandbox.ts";
import { type ContractDev, containerRunUnavailable, startContractWorker } from "./support/contract-dev.ts";
import { RemoteSandbox } from "./support/remote-sandbox.ts";

// What the container adapter enforces, on real containers (wrangler dev with containers, the
// Docker API proxy that lets root call `unshare --net`): the sandbox user, network deny (its own
// loopback only: not the control port on the container's loopback or address, not the internet),
// fs and env deny, another run's files, the limits, and a container killed mid-command.
// container-limits.local.ts checks the same layer over local namespace containers, without Docker.
const unavailable = await containerRunUnavailable();
if (unavailable) console.log(`real containers: skipped — ${unavailable}`);
const DENY: CodePolicy = { network: "deny", env: "deny", fs: "deny" };
let dev: ContractDev | null = null;
beforeAll(async () => {
  if (!unavailable) dev = await startContractWorker();
}, 16 * 60_000);
afterAll(async () => {
  await dev?.stop();
});

const box = () => new RemoteSandbox((dev as ContractDev).url, new MemoryMemoryStore());
const code = (source: string, over: Partial<RunCodeRequest> = {}): RunCodeRequest => ({
  files: { "m.js": { content: source, sha256: digestText(source) } },
  entrypoint: "m.js",
  input: {},
  policy: DENY,
  ...over,
});
const docker = (...args: string[]) => execFileSync("docker", args, { encoding: "utf8" }).trim();
/** The names of the containers workerd runs for Durable Objects (not their network sidecars). */
const sandboxContainers = () =>
  docker("ps", "--format", "{{.Names}}", "--filter", "name=workerd-")
    .split("\n")
    .filter((name) => name !== "" && !name.endsWith("-proxy"));
/** Opens a session and returns it with the name of the container its first command started. */
async function sessionInNewContainer(sandbox: RemoteSandbox, sessionId: string): Promise<{ session: SandboxSession; name: string }> {
  const before = new Set(sandboxContainers());
  const session = await sandbox.openSession({ sessionId, skills: [] });
  await session.exec("true");
  const name = sandboxContainers().find((n) => !before.has(n));
  if (!name) throw new Error("no new container appeared for the session");
  return { session, name };
}
const PROBE = (host: string, port: number) => `(exec 3<>/dev/tcp/${host}/${port} && echo reached) 2>/dev/null || echo unreachable`;

describe.skipIf(unavailable !== null)("ContainerSandbox on real containers: isolation, limits, a killed container", () => {
  it("bash runs as the sandbox user with a clean environment and cannot touch the helper", async () => {
    const session = await box().openSession({ sessionId: "who", skills: [] });
    expect((await session.exec("id -u")).stdout).toBe("10001\n");
    const env = (await session.exec("env | cut -d= -f1 | sort")).stdout.split("\n").filter(Boolean);
    expect(env.filter((n) => !["HOME", "LANG", "OLDPWD", "PATH", "PWD", "SHLVL", "_"].includes(n))).toEqual([]);
    expect((await session.exec("echo x >> /opt/little/little.sh")).exitCode).not.toBe(0);
    expect((await session.exec("ls /opt/little/stage")).exitCode).not.toBe(0);
  });

  it("network deny: no control port on the container's loopback or address, no internet; its own loopback works", async () => {
    const { session, name } = await sessionInNewContainer(box(), "net");
    // The control server listens on the container's network (root reaches it: checked from the host).
    const address = docker("inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", `${name}-proxy`);
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const fromHost = await fetch(`http://${address}:3000/api/ping`).then(
      (r) => r.status,
      (e: unknown) => String(e),
    );
    expect(fromHost).toBe(200);
    expect((await session.exec(PROBE("127.0.0.1", 3000))).stdout).toBe("unreachable\n");
    expect((await session.exec(PROBE(address, 3000))).stdout).toBe("unreachable\n");
    expect((await session.exec("curl -sS -m 5 http://1.1.1.1/ >/dev/null 2>&1 || echo no-internet")).stdout).toBe("no-internet\n");
    const own = await session.exec(
      `node -e 'const net = require("net"); const srv = net.createServer((s) => s.end("mine")).listen(4100, "127.0.0.1", () => net.connect(4100, "127.0.0.1").on("data", (d) => { console.log(String(d)); srv.close(); }));'`,
    );
    expect(own.stdout).toBe("mine\n");
    const viaCode = await box().runCode(
      code(`import net from "node:net";
export async function run() {
  const probe = (host, port) => new Promise((resolve) => { const s = net.connect(port, host); s.on("connect", () => { s.destroy(); resolve("reached"); }); s.on("error", (e) => resolve(e.code)); });
  let internet;
  try { await fetch("http://1.1.1.1/", { signal: AbortSignal.timeout(5000) }); internet = "reached"; } catch (e) { internet = "failed"; }
  return { control: await probe("127.0.0.1", 3000), address: await probe(${JSON.stringify(address)}, 3000), internet };
}`),
    );
    expect(viaCode).toMatchObject({
      ok: true,
      output: { control: expect.stringMatching(/^E/), address: expect.stringMatching(/^E/), internet: "failed" },
    });
  });

  it("code.run with fs and env deny: no reading outside the code, no writing, no processes; only PATH, HOME and LANG", async () => {
    const sandbox = box();
    for (const body of [
      'const { readFileSync } = await import("node:fs"); return readFileSync("/etc/passwd", "utf8");',
      'const { writeFileSync } = await import("node:fs"); writeFileSync("/tmp/x", "1"); return 1;',
      'const { execSync } = await import("node:child_process"); return String(execSync("id"));',
    ]) {
      expect(await sandbox.runCode(code(`export async function run() { ${body} }`)), body).toMatchObject({
        ok: false,
        error: { code: "code_threw", message: expect.stringMatching(/restricted|ERR_ACCESS_DENIED/) },
      });
    }
    expect(await sandbox.runCode(code("export function run() { return Object.keys(process.env).sort(); }"))).toMatchObject({
      ok: true,
      output: ["HOME", "LANG", "PATH"],
    });
  });

  it("another run's files: each run (scope) has its own container, and its files are not in another's", async () => {
    const a = await box().openSession({ sessionId: "s", skills: [] });
    const b = await box().openSession({ sessionId: "s", skills: [] });
    await a.exec("echo secret > mine.txt");
    expect((await a.exec("cat mine.txt")).stdout).toBe("secret\n");
    expect((await b.exec("cat mine.txt")).exitCode).not.toBe(0);
    expect((await a.exec("hostname")).stdout).not.toBe((await b.exec("hostname")).stdout);
    const peek = await box().runCode(
      code('import { readdirSync } from "node:fs";\nexport function run() { return readdirSync("/mnt/scratch/own"); }', {
        policy: { ...DENY, fs: "allow" },
      }),
    );
    expect(peek.ok ? peek.output : []).not.toContain("mine.txt");
  });

  it("limits: wall time, CPU time, output size", async () => {
    const sandbox = box();
    const wall = await sandbox.runCode(code("export function run() { for (;;) {} }", { limits: { wallMs: 1_500, cpuMs: 30_000 } }));
    expect(wall).toMatchObject({ ok: false, error: { code: "code_timeout", message: expect.stringMatching(/wall-time/) } });
    const cpu = await sandbox.runCode(code("export function run() { for (;;) {} }", { limits: { wallMs: 20_000, cpuMs: 1_000 } }));
    expect(cpu).toMatchObject({ ok: false, error: { code: "code_timeout", message: expect.stringMatching(/CPU/) } });
    expect(await sandbox.runCode(code('export function run() { return "x".repeat(3 * 1024 * 1024); }'))).toMatchObject({
      ok: false,
      error: { code: "code_output_too_large" },
    });
    const session = await sandbox.openSession({ sessionId: "big", skills: [] });
    const big = await session.exec("head -c 200000 /dev/zero | tr '\\0' a");
    expect(big.stdout.length).toBeLessThan(70_000);
    expect(big.stdout).toMatch(/\[output truncated at 65536 characters\]$/);
    const slow = await session.exec("sleep 30; echo never", { timeoutMs: 1_000 });
    expect(slow.exitCode).toBe(124);
  });

  it("the deploy's smoke check through the Worker: a bash command and a code.run ran", async () => {
    const report = await smokeCheck((dev as ContractDev).url, { fetch, attempts: 1 });
    expect(report).toMatchObject({ ok: true, bashMs: expect.any(Number), codeRunMs: expect.any(Number) });
  });

  it("a container killed mid-command: the command fails, not hangs; the next one runs, with the session's files", async () => {
    const { session, name } = await sessionInNewContainer(box(), "killed");
    await session.exec("echo kept > keep.txt");
    await session.snapshotScratch();
    const started = Date.now();
    const running = session.exec("sleep 30; echo finished");
    await new Promise((done) => setTimeout(done, 1_500));
    docker("kill", name);
    const r = await running;
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain("finished");
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await session.exec("cat keep.txt")).toMatchObject({ exitCode: 0, stdout: "kept\n" });
  });
});
