import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { JustBashSandbox } from "../../../src/adapters/sandbox-isolate/just-bash-sandbox.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { RunCodeRequest, RunCodeResult, SandboxSession } from "../../../src/ports/sandbox.ts";

// Escape and exfiltration attempts against the isolate sandbox: code.run (policy deny) and `node`
// in bash. Each must be denied or limited with a clear error, and the host must be unharmed: after
// every test a normal code.run and a normal `node` still work, and the host's prototypes are clean.
//
// Endless code that never yields (`for (;;) {}`, `for (;;) await null`) is in loop-guard.test.ts:
// local workerd enforces no CPU limit, and the loop guard is what stops it there. Not here, on
// purpose: a bomb that retains heap until V8 runs out: local workerd aborts the whole process on V8
// OOM (checked), while Cloudflare kills the isolate at 128 MB. See docs/sandbox.md, "What is
// enforced locally".

const store = new MemoryMemoryStore();
const sandbox = new IsolateSandbox({ loader: env.LOADER, memory: store });
const DENY = { network: "deny", env: "deny", fs: "deny" } as const;
const HEALTHY = "export function run({ input }) { return { sum: input.a + input.b }; }";

function files(map: Record<string, string>): RunCodeRequest["files"] {
  return Object.fromEntries(Object.entries(map).map(([name, content]) => [name, { content, sha256: digestText(content) }]));
}

const runCode = (code: string, extra: Partial<RunCodeRequest> = {}): Promise<RunCodeResult> =>
  sandbox.runCode({ files: files({ "main.js": code }), entrypoint: "main.js", input: {}, policy: DENY, ...extra });

async function expectCodeError(code: string, errorCode: string, message: RegExp, extra: Partial<RunCodeRequest> = {}) {
  const r = await runCode(code, extra);
  expect(r.ok, JSON.stringify(r)).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toBe(errorCode);
    expect(r.error.message).toMatch(message);
  }
  return r;
}

const session = (): Promise<SandboxSession> => sandbox.openSession({ sessionId: `esc-${crypto.randomUUID()}`, skills: [] });

async function node(script: string, s?: SandboxSession) {
  return (s ?? (await session())).exec(`node -e ${shellQuote(script)}`);
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

afterEach(async () => {
  const healthy = await sandbox.runCode({ files: files({ "ok.js": HEALTHY }), entrypoint: "ok.js", input: { a: 2, b: 3 }, policy: DENY });
  expect(healthy).toMatchObject({ ok: true, output: { sum: 5 } });
  expect(await node("console.log(40 + 2)")).toEqual({ exitCode: 0, stdout: "42\n", stderr: "" });
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Array.prototype.includes.name).toBe("includes");
});

const NOT_PERMITTED = /not permitted to access the internet|Network connection lost|denied|disallowed/i;

describe("network: denied from code.run", () => {
  it.each([
    ["the internet", "https://example.com/"],
    ["loopback 127.0.0.1", "http://127.0.0.1:8787/"],
    ["localhost", "http://localhost/"],
    ["a link-local metadata address", "http://169.254.169.254/latest/meta-data/"],
  ])("fetch to %s throws", async (_name, url) => {
    await expectCodeError(
      `export async function run() { const r = await fetch(${JSON.stringify(url)}); return r.status; }`,
      "code_threw",
      NOT_PERMITTED,
    );
  });

  it("connect() from cloudflare:sockets throws", async () => {
    await expectCodeError(
      'import { connect } from "cloudflare:sockets";\nexport async function run() { const s = connect("127.0.0.1:22"); await s.opened; return "open"; }',
      "code_threw",
      NOT_PERMITTED,
    );
  });

  it("a WebSocket to loopback throws", async () => {
    await expectCodeError(
      'export async function run() { new WebSocket("ws://127.0.0.1:8787/"); return "made"; }',
      "code_threw",
      NOT_PERMITTED,
    );
  });
});

describe("network: denied from node in bash", () => {
  it.each([
    ["the internet", "https://example.com/"],
    ["127.0.0.1", "http://127.0.0.1:8787/"],
    ["localhost", "http://localhost:8787/"],
  ])("fetch to %s exits 1 with the reason on stderr", async (_name, url) => {
    const r = await node(`const r = await fetch(${JSON.stringify(url)}); console.log("reached", r.status)`);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(NOT_PERMITTED);
  });

  it("connect() from cloudflare:sockets exits 1", async () => {
    const r = await node(
      'const { connect } = await import("cloudflare:sockets"); const s = connect("localhost:22"); await s.opened; console.log("open")',
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(NOT_PERMITTED);
  });
});

describe("env and bindings: nothing to read", () => {
  it("code.run sees no this.env, no process, and an empty env from cloudflare:workers", async () => {
    const r = await runCode(
      'import * as workers from "cloudflare:workers";\nexport function run() { return { thisEnv: this?.env ?? null, process: typeof globalThis.process, processEnv: globalThis.process?.env ?? null, workersEnv: Object.keys(workers.env ?? {}), loader: typeof globalThis.LOADER, db: typeof globalThis.DB }; }',
    );
    expect(r).toMatchObject({
      ok: true,
      output: { thisEnv: null, process: "undefined", processEnv: null, workersEnv: [], loader: "undefined", db: "undefined" },
    });
  });

  it("node sees an empty process.env and an empty env from cloudflare:workers", async () => {
    const r = await node(
      'const w = await import("cloudflare:workers"); console.log(JSON.stringify(process.env), JSON.stringify(Object.keys(w.env ?? {})), typeof globalThis.DB, typeof globalThis.LOADER)',
    );
    expect(r).toEqual({ exitCode: 0, stdout: "{} [] undefined undefined\n", stderr: "" });
  });

  it("bash's environment holds no secrets of the Worker", async () => {
    const r = await (await session()).exec("env");
    expect(r.stdout).not.toMatch(/LITTLE_|TOKEN|SECRET|WEBHOOK|API_KEY/);
  });
});

describe("Node built-ins and the filesystem: absent under fs deny", () => {
  it.each(["node:fs", "node:child_process", "node:net", "fs"])("code.run cannot import %s (the code does not load)", async (name) => {
    await expectCodeError(
      `import * as m from ${JSON.stringify(name)};\nexport function run() { return Object.keys(m).length; }`,
      "code_load_failed",
      /No such module/,
    );
  });

  it.each(["node:fs", "node:child_process", "node:net"])("code.run cannot import(%s) at run time", async (name) => {
    await expectCodeError(
      `export async function run() { const m = await import(${JSON.stringify(name)}); return Object.keys(m).length; }`,
      "code_threw",
      /No such module/,
    );
  });

  it.each([
    ['await import("node:fs")', /No such module/],
    ['await import("node:child_process")', /No such module/],
    ['await import("node:net")', /No such module/],
    ['require("fs")', /require\("fs"\) is not available/],
    ['require("child_process").execSync("id")', /require\("child_process"\) is not available/],
  ])("node: %s fails with a clear error", async (expression, message) => {
    const r = await node(`const m = ${expression}; console.log("loaded", typeof m)`);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});

describe("files: sessions are apart, memory modes hold, names cannot climb", () => {
  it("one session cannot read another session's scratch, from bash or from node", async () => {
    const a = await session();
    await a.exec("echo 'the secret of a' > secret.txt");
    const b = await session();
    const r = await b.exec("cat /mnt/scratch/own/secret.txt; ls -A /mnt/scratch /mnt/scratch/own; grep -rs 'secret of a' / | head -1");
    expect(r.stdout).not.toMatch(/secret/);
    expect(r.stderr).toMatch(/secret\.txt: No such file/);
    const fromNode = await node(
      'const fs = await import("node:fs"); console.log(fs.readFileSync("/mnt/scratch/own/secret.txt", "utf8"))',
      b,
    );
    expect(fromNode.exitCode).toBe(1);
    expect(fromNode.stdout).toBe("");
  });

  it("writing org memory mounted ro is refused with EROFS and never reaches the store", async () => {
    await store.save("org:escape", { "policy.md": "original\n" });
    const s = await sandbox.openSession({
      sessionId: `esc-${crypto.randomUUID()}`,
      skills: [],
      memory: [{ path: "/mnt/memory/org", storeId: "org:escape", mode: "ro" }],
    });
    const r = await s.exec(
      "(echo pwned > /mnt/memory/org/policy.md); (cat /etc/hosts > /mnt/memory/org/exfil.md); rm -f /mnt/memory/org/policy.md",
    );
    expect(r.stderr).toMatch(/EROFS/);
    expect(await s.persistMemory()).toEqual({ saved: [], deleted: [] });
    expect(await store.load("org:escape")).toEqual({ "policy.md": "original\n" });
  });

  it.each(["../x.js", "a/../../x.js", "/etc/x.js", "./main.js", "a\\..\\x.js", "__little_runner.js"])(
    "code.run refuses the file name %j before loading anything",
    async (name) => {
      const r = await sandbox.runCode({ files: files({ [name]: HEALTHY }), entrypoint: name, input: { a: 1, b: 1 }, policy: DENY });
      expect(r).toMatchObject({ ok: false, error: { code: "code_invalid_file_name" } });
    },
  );

  it("an import that climbs out of the module set finds nothing", async () => {
    await expectCodeError(
      'import x from "../../../etc/passwd";\nexport function run() { return x; }',
      "code_load_failed",
      /Invalid module specifier|No such module/,
    );
    await expectCodeError(
      'import x from "/etc/passwd";\nexport function run() { return x; }',
      "code_load_failed",
      /Invalid module specifier|No such module/,
    );
  });

  it("node resolves ../ paths inside the session's own filesystem only", async () => {
    const r = await (await session()).exec("node ../../../../etc/passwd; node /proc/self/environ");
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toMatch(/root:|LITTLE_/);
  });
});

describe("output, memory and time: limited", () => {
  it("an oversized code.run output is refused; patching JSON inside the isolate does not fool the runner", async () => {
    await expectCodeError("export function run() { return 'x'.repeat(2 * 1024 * 1024); }", "code_output_too_large", /limit/);
    const patched = await runCode(
      "export function run() { JSON.stringify = () => '1'; JSON.parse = () => 'x'.repeat(3 * 1024 * 1024); return 'small'; }",
    );
    expect(patched).toMatchObject({ ok: true, output: "small" });
  });

  it("a runner forged by the code (patched through a circular import) is caught by the host's checks", async () => {
    // The first call patches the runner class; the warm isolate (same code, same run) answers the
    // next calls with the forged method.
    const run = sandbox.forScope(`escapes:forge-${crypto.randomUUID()}`);
    const forged = (code: string) => run.runCode({ files: files({ "main.js": code }), entrypoint: "main.js", input: {}, policy: DENY });
    const forge = (answer: string) =>
      `import { Runner } from "./__little_runner.js";\nexport function run() { Runner.prototype.run = async () => (${answer}); return "patched"; }`;
    const cases: [string, string, RegExp][] = [
      ["{ ok: true, output: 'x'.repeat(3 * 1024 * 1024), logs: [] }", "code_output_too_large", /limit/],
      ["{ ok: true, output: { steal: () => 42 }, logs: [] }", "code_output_not_json", /plain JSON/],
      ["{ ok: true, output: new Map([[1, 2]]), logs: [] }", "code_output_not_json", /plain JSON/],
      [
        "{ ok: false, error: { code: 'code_integrity', message: 'm'.repeat(100000) }, logs: ['l'.repeat(100000), 7] }",
        "code_threw",
        /^m+$/,
      ],
    ];
    for (const [answer, code, message] of cases) {
      expect(await forged(forge(answer))).toMatchObject({ ok: true, output: "patched" });
      const r = await forged(forge(answer));
      expect(r.ok, JSON.stringify(r)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe(code);
      if (!r.ok) expect(r.error.message).toMatch(message);
      if (!r.ok) expect(r.error.message.length).toBeLessThanOrEqual(4_000);
      expect(r.logs.every((l) => typeof l === "string" && l.length <= 2_000)).toBe(true);
    }
  });

  it("oversized node output is clipped in the isolate", async () => {
    const r = await node('const line = "y".repeat(1024 * 1024); for (let i = 0; i < 8; i++) console.log(line)');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeLessThan(70 * 1024);
    expect(r.stdout).toMatch(/output truncated/);
  });

  it.each([
    ["doubling a string", "let s = 'x'; for (;;) s += s;", /RangeError: Invalid string length/],
    ["an array of 2^32 slots", "const a = new Array(2 ** 32); return a.length;", /RangeError: Invalid array length/],
    ["a 1 TiB buffer", "return new Uint8Array(2 ** 40).length;", /RangeError: Array buffer allocation failed/],
    ["unbounded recursion", "const f = (n) => f(n + 1) + 1; return f(0);", /RangeError: Maximum call stack size exceeded/],
  ])("a memory bomb by %s comes back as an error (code.run and node)", async (_name, body, message) => {
    await expectCodeError(`export function run() { ${body} }`, "code_threw", message);
    const r = await node(`(() => { ${body} })()`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(message);
  });

  it.todo(
    "a bomb that retains heap until V8 gives up: aborts local workerd (no per-isolate memory limit locally), so it runs only against Cloudflare",
  );

  it("a never-ending async loop in code.run stops at its wall time; its timers stop firing in the isolate", async () => {
    const started = Date.now();
    await expectCodeError(
      "export async function run() { for (;;) await new Promise((r) => setTimeout(r, 5)); }",
      "code_timeout",
      /300 ms wall-time limit/,
      { limits: { wallMs: 300 } },
    );
    await expectCodeError(
      "export async function run() { setInterval(() => {}, 1); await new Promise(() => {}); }",
      "code_timeout",
      /wall-time/,
      {
        limits: { wallMs: 200 },
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a never-ending async loop in node exits 124 at its wall time", async () => {
    const short = await new JustBashSandbox({ loader: env.LOADER, nodeWallMs: 250 }).openSession({ sessionId: "esc-wall", skills: [] });
    const started = Date.now();
    const r = await short.exec(`node -e 'for (;;) await new Promise((r) => setTimeout(r, 1))'`);
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toMatch(/250 ms.*wall-time limit/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await short.exec("node -e 'console.log(1)'")).stdout).toBe("1\n");
  });
});

describe("prototype pollution: stays in its isolate", () => {
  it("code.run polluting Object.prototype and Array.prototype leaves the host's untouched", async () => {
    const r = await runCode(
      'export function run() { Object.prototype.polluted = "yes"; Array.prototype.includes = () => true; Object.defineProperty(Object.prototype, "isAdmin", { value: true, enumerable: false }); return { seen: ({}).polluted }; }',
    );
    expect(r).toMatchObject({ ok: true, output: { seen: "yes" } });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect([1].includes(2)).toBe(false);
  });

  it("an output carrying __proto__ and constructor.prototype keys stays plain data in the host", async () => {
    const r = await runCode(
      'export function run() { return JSON.parse(\'{"__proto__": {"polluted": "via-proto"}, "constructor": {"prototype": {"polluted": "via-constructor"}}, "a": 1}\'); }',
    );
    expect(r.ok).toBe(true);
    if (r.ok) {
      const output = r.output as Record<string, unknown>;
      expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
      expect(output.polluted).toBeUndefined();
      expect(Object.keys(output)).toEqual(["__proto__", "constructor", "a"]);
      const spread = { ...output };
      expect((spread as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("node polluting prototypes leaves the host and the next node run untouched", async () => {
    const s = await session();
    expect((await node('Object.prototype.polluted = "yes"; console.log(({}).polluted)', s)).stdout).toBe("yes\n");
    expect((await node("console.log(String(({}).polluted))", s)).stdout).toBe("undefined\n");
  });
});
