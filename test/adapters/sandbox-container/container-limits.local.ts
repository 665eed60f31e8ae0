import { afterAll, describe, expect, it } from "vitest";
import { ContainerSandbox } from "../../../src/adapters/sandbox-container/container-sandbox.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { CodePolicy, RunCodeRequest } from "../../../src/ports/sandbox.ts";
import { LocalContainer, localContainerUnavailable } from "./support/local-container.ts";

const DENY: CodePolicy = { network: "deny", env: "deny", fs: "deny" };
const unavailable = localContainerUnavailable();
if (unavailable) console.log(`container limits: skipped — ${unavailable}`);
const containers: LocalContainer[] = [];
afterAll(() => {
  for (const c of containers) c.dispose();
});

function sandbox(): ContainerSandbox {
  return new ContainerSandbox({
    open: () => {
      const c = new LocalContainer();
      containers.push(c);
      return c;
    },
  });
}

const code = (source: string, over: Partial<RunCodeRequest> = {}): RunCodeRequest => ({
  files: { "m.ts": { content: source, sha256: digestText(source) } },
  entrypoint: "m.ts",
  input: {},
  policy: DENY,
  ...over,
});

/**
 * What the container adapter itself enforces, run for real (helper script, setpriv, timeout,
 * ulimit, Node's permission model) in local namespace containers. The container's own boundary
 * and its internet switch are Cloudflare's; these check the adapter's layer inside it.
 */
describe.skipIf(unavailable !== null)("ContainerSandbox limits and denials (local namespace containers)", () => {
  const box = sandbox();

  it("code.run: TypeScript (enums too) runs and gets its input from a file, byte for byte", async () => {
    const input = { text: `it's "$(id)" \`x\`; echo $HOME\n` };
    const r = await box.runCode(
      code(
        "enum E { A = 2 }\nexport function run({ input }: { input: { text: string } }) { console.log('hi'); return { text: input.text, a: E.A }; }",
        { input },
      ),
    );
    expect(r).toMatchObject({ ok: true, output: { text: input.text, a: 2 }, logs: ["log: hi"] });
  });

  it("code.run: an endless loop stops at the wall-time limit", async () => {
    const r = await box.runCode(code("export function run() { for (;;) {} }", { limits: { wallMs: 1_500, cpuMs: 30_000 } }));
    expect(r).toMatchObject({ ok: false, error: { code: "code_timeout" } });
    expect(r.durationMs).toBeLessThan(15_000);
  });

  it("code.run: a CPU-bound loop stops at the CPU limit", async () => {
    const r = await box.runCode(code("export function run() { for (;;) {} }", { limits: { wallMs: 20_000, cpuMs: 1_000 } }));
    expect(r).toMatchObject({ ok: false, error: { code: "code_timeout", message: expect.stringMatching(/CPU/) } });
  });

  it("code.run: a memory bomb stops at the heap limit", async () => {
    const r = await box.runCode(code("export function run() { const a = []; for (;;) a.push(new Array(1e6).fill(1)); }"));
    expect(r).toMatchObject({ ok: false, error: { code: "code_load_failed", message: expect.stringMatching(/heap limit/) } });
  });

  it("code.run with fs deny: no reading outside the code, no writing, no child processes", async () => {
    for (const body of [
      'const { readFileSync } = await import("node:fs"); return readFileSync("/etc/passwd", "utf8");',
      'const { writeFileSync } = await import("node:fs"); writeFileSync("/tmp/x", "1"); return 1;',
      'const { execSync } = await import("node:child_process"); return String(execSync("id"));',
      'const { Worker } = await import("node:worker_threads"); new Worker("1", { eval: true }); return 1;',
    ]) {
      const r = await box.runCode(code(`export async function run() { ${body} }`));
      expect(r, body).toMatchObject({
        ok: false,
        error: { code: "code_threw", message: expect.stringMatching(/restricted|ERR_ACCESS_DENIED/) },
      });
    }
  });

  it("code.run with fs allow: reads the container's files and writes its own temp directory, still no processes", async () => {
    const policy: CodePolicy = { network: "deny", env: "deny", fs: "allow" };
    const r = await box.runCode(
      code(
        'import { readFileSync, writeFileSync } from "node:fs";\nexport function run() { writeFileSync(process.env.HOME + "/n.txt", "7"); return readFileSync(process.env.HOME + "/n.txt", "utf8") + readFileSync("/etc/hostname", "utf8").length; }',
        { policy },
      ),
    );
    expect(r).toMatchObject({ ok: true });
    const spawn = await box.runCode(
      code('import { execSync } from "node:child_process";\nexport function run() { return String(execSync("id")); }', { policy }),
    );
    expect(spawn).toMatchObject({ ok: false, error: { code: "code_threw" } });
  });

  it("code.run with env deny sees only PATH, HOME and LANG; network is unreachable", async () => {
    const env = await box.runCode(code("export function run() { return Object.keys(process.env).sort(); }"));
    expect(env).toMatchObject({ ok: true, output: ["HOME", "LANG", "PATH"] });
    const net = await box.runCode(
      code('export async function run() { await fetch("http://1.1.1.1/"); return 1; }', { limits: { wallMs: 10_000 } }),
    );
    expect(net).toMatchObject({ ok: false, error: { code: "code_threw" } });
  });

  it("code.run: syntax errors, exits without a result and oversized outputs have their codes", async () => {
    // TypeScript that does not parse is refused while stripping (as in the isolate sandbox); JavaScript
    // reaches node, which fails to load it.
    expect(await box.runCode(code("export function run( {"))).toMatchObject({ ok: false, error: { code: "code_unsupported_syntax" } });
    const broken = "export function run( {";
    expect(
      await box.runCode(code("", { files: { "m.js": { content: broken, sha256: digestText(broken) } }, entrypoint: "m.js" })),
    ).toMatchObject({
      ok: false,
      error: { code: "code_load_failed", message: expect.stringMatching(/SyntaxError/) },
    });
    expect(await box.runCode(code("export function run() { process.exit(0); }"))).toMatchObject({
      ok: false,
      error: { code: "code_load_failed", message: expect.stringMatching(/without a result/) },
    });
    expect(await box.runCode(code('export function run() { return "x".repeat(3 * 1024 * 1024); }'))).toMatchObject({
      ok: false,
      error: { code: "code_output_too_large" },
    });
  });

  it("bash runs as an unprivileged user with a clean environment and cannot touch the helper", async () => {
    const session = await box.openSession({ sessionId: "who", skills: [] });
    expect((await session.exec("id -u")).stdout.trim()).toBe("10001");
    const env = (await session.exec("env | cut -d= -f1 | sort")).stdout.split("\n").filter(Boolean);
    expect(env.filter((name) => name.startsWith("LC_"))).toEqual([]);
    expect((await session.exec("echo x >> /opt/little/little.sh")).exitCode).not.toBe(0);
    expect((await session.exec("ls /opt/little/stage")).exitCode).not.toBe(0);
  });

  it("bash: a command past its timeout exits 124 and its children die with it", async () => {
    const session = await box.openSession({ sessionId: "slow", skills: [] });
    const started = Date.now();
    const r = await session.exec("sleep 30 & sleep 30; echo never", { timeoutMs: 1_000 });
    expect(r.exitCode).toBe(124);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Killed children linger as zombies until the container's init reaps them: count live ones.
    const live = await session.exec("ps -u 10001 -o stat=,comm= | grep -v '^Z' | grep -c sleep || true");
    expect(live.stdout.trim()).toBe("0");
  });

  it("host writes run as the sandbox user: traversal out of scratch or onto the helper is refused", async () => {
    const session = await box.openSession({
      sessionId: "traverse",
      skills: [],
      memory: [{ path: "/mnt/memory/org", storeId: "org:acme", mode: "ro" }],
    });
    await expect(session.writeFile("../../../opt/little/little.sh", "echo pwned")).rejects.toThrow(/could not write/);
    await expect(session.writeFile("/mnt/memory/org/x.md", "x")).rejects.toThrow(/could not write/);
    await session.exec("ln -s /opt/little/little.sh helper.sh");
    await expect(session.writeFile("helper.sh", "echo pwned")).rejects.toThrow(/could not write/);
    expect(await session.readFile("/opt/little/stage")).toBeNull();
    expect((await session.exec("id -u")).stdout.trim()).toBe("10001");
  });

  it("bash: a symlink in scratch does not leak its target into the snapshot", async () => {
    const session = await box.openSession({ sessionId: "link", skills: [] });
    await session.exec("ln -s /etc/passwd passwd && ln -s /opt/little/stage stage && echo mine > own.txt");
    expect(await session.snapshotScratch()).toEqual({ "own.txt": "mine\n" });
  });
});
