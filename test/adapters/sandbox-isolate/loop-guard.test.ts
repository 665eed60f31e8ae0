import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { JustBashSandbox } from "../../../src/adapters/sandbox-isolate/just-bash-sandbox.ts";
import { instrumentModule } from "../../../src/adapters/sandbox-isolate/loop-guard-instrument.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { RunCodeRequest, RunCodeResult } from "../../../src/ports/sandbox.ts";

// Issue 15, item 11: local workerd enforces no CPU limit and runs every isolate on one thread, so
// code that never yields used to freeze the test process and `wrangler dev`. The loop guard
// (src/adapters/sandbox-isolate/loop-guard-*.ts) must stop such code with `code_timeout` (exit 124
// for `node`) within a bounded time, leave this worker answering, and change nothing else.

const sandbox = new IsolateSandbox({ loader: env.LOADER });
const DENY = { network: "deny", env: "deny", fs: "deny" } as const;
const HEALTHY = "export function run({ input }) { return { sum: input.a + input.b }; }";
/** Small CPU budget so each endless loop ends fast; generous wall time (the guard's CPU check must win). */
const LIMITS = { cpuMs: 300, wallMs: 20_000 };

function files(map: Record<string, string>): RunCodeRequest["files"] {
  return Object.fromEntries(Object.entries(map).map(([name, content]) => [name, { content, sha256: digestText(content) }]));
}

const runCode = (code: string, extra: Partial<RunCodeRequest> = {}): Promise<RunCodeResult> =>
  sandbox.runCode({ files: files({ "main.js": code }), entrypoint: "main.js", input: {}, policy: DENY, limits: LIMITS, ...extra });

async function expectHealthy() {
  expect(await runCode(HEALTHY, { input: { a: 2, b: 3 } })).toMatchObject({ ok: true, output: { sum: 5 } });
}

async function expectStopped(code: string, extra: Partial<RunCodeRequest> = {}, withinMs = 5_000) {
  const started = Date.now();
  const r = await runCode(code, extra);
  const elapsed = Date.now() - started;
  expect(r.ok, JSON.stringify(r)).toBe(false);
  if (!r.ok) {
    expect(r.error.code, r.error.message).toBe("code_timeout");
    expect(r.error.message).toMatch(/CPU guard/);
  }
  expect(elapsed).toBeLessThan(withinMs);
  // The same worker still answers: a normal code.run right after completes.
  await expectHealthy();
  return r;
}

describe("loop guard: endless code.run stops with code_timeout and the worker keeps answering", () => {
  const endless: [string, string][] = [
    ["while (true) {}", "export function run() { while (true) {} }"],
    ["for (;;);", "export function run() { for (;;); }"],
    ["do {} while (true)", "export function run() { do {} while (true); }"],
    [
      "a nested loop whose inner loop never ends",
      "export function run() { for (let i = 0; i < 3; i++) { let j = 0; while (j >= 0) j = (j + 1) % 7; } }",
    ],
    [
      "for…of over an endless generator",
      "function* g() { for (let i = 0; ; i++) yield i; }\nexport function run() { for (const x of g()) void x; }",
    ],
    ["for…in inside an endless loop", "export function run() { const o = { a: 1 }; for (;;) for (const k in o) void k; }"],
    [
      "exponential recursion with no loop",
      "const f = (n) => (n === 0 ? 0 : f(n - 1) + f(n - 1));\nexport function run() { return f(80); }",
    ],
    ["a loop of resolved awaits (microtasks starve timers)", "export async function run() { for (;;) await null; }"],
    ["a callback of a builtin (sort comparator)", "export function run() { const a = [3, 1, 2]; a.sort(() => { for (;;); }); }"],
    ["in a TypeScript file", "export function run(): number { let n: number = 0; while (n >= 0) n = (n + 1) % 5; return n; }"],
  ];
  for (const [name, code] of endless) {
    it(name, async () => {
      const isTs = name.includes("TypeScript");
      await expectStopped(code, isTs ? { files: files({ "main.ts": code }), entrypoint: "main.ts" } : {});
    });
  }

  it("endless recursion ends with the stack-overflow error (or the guard), not a hang", async () => {
    const r = await runCode("function f() { return f() + 1; }\nexport function run() { return f(); }");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(`${r.error.code}: ${r.error.message}`).toMatch(/code_threw: RangeError: Maximum call stack|code_timeout/);
    await expectHealthy();
  });

  it("catching the guard's error does not let the code spin on or answer normally", async () => {
    await expectStopped("export function run() { for (;;) { try { for (;;) {} } catch {} } }");
    await expectStopped("export function run() { try { while (true) {} } catch (e) { return { swallowed: String(e) }; } }");
    await expectStopped("export async function run() { try { for (;;) await null; } finally { return 'finally'; } }");
  });

  it("an endless loop at a module's top level stops the isolate's start with code_timeout", async () => {
    await expectStopped("while (true) {}\nexport function run() { return 1; }", {}, 10_000);
  });

  it("an imported module's loop is guarded too (modules in subdirectories import the guard by a relative path)", async () => {
    await expectStopped("", {
      files: files({
        "main.js": 'import { spin } from "./lib/deep/spin.js";\nexport function run() { spin(); }',
        "lib/deep/spin.js": "export function spin() { for (;;) {} }",
      }),
    });
  });

  it("the wall-time limit stops a loop even when the CPU budget is larger", async () => {
    const r = await expectStopped("export function run() { for (;;) {} }", { limits: { cpuMs: 60_000, wallMs: 400 } });
    if (!r.ok) expect(r.error.message).toMatch(/wall-time/);
  });

  it("a warm isolate that tripped runs the same code normally on its next call", async () => {
    const code = "export function run({ input }) { if (input.spin) for (;;) {} return { ok: input.n * 2 }; }";
    await expectStopped(code, { input: { spin: true } });
    expect(await runCode(code, { input: { spin: false, n: 21 } })).toMatchObject({ ok: true, output: { ok: 42 } });
  });

  it("a request started while an endless code.run spins completes once the guard stops it", async () => {
    const [stuck, healthy] = await Promise.all([
      runCode("export function run() { for (;;) {} }"),
      runCode(HEALTHY, { input: { a: 1, b: 1 } }),
    ]);
    expect(stuck).toMatchObject({ ok: false, error: { code: "code_timeout" } });
    expect(healthy).toMatchObject({ ok: true, output: { sum: 2 } });
  });

  it("code that works longer than the CPU budget in total, but yields in between, is not stopped", async () => {
    const code = `export async function run() {
      let total = 0;
      for (let slice = 0; slice < 8; slice++) {
        const until = Date.now() + 100;
        while (Date.now() < until) total++;
        await new Promise((r) => setTimeout(r, 5));
      }
      return { slices: 8, busy: total > 0 };
    }`;
    expect(await runCode(code)).toMatchObject({ ok: true, output: { slices: 8, busy: true } });
  });

  it("a long finite loop within the budget gives the right answer", async () => {
    const code = "export function run() { let s = 0; for (let i = 0; i < 5_000_000; i++) s = (s + i) % 1_000_003; return { s }; }";
    let s = 0;
    for (let i = 0; i < 5_000_000; i++) s = (s + i) % 1_000_003;
    expect(await runCode(code, { limits: { cpuMs: 5_000, wallMs: 20_000 } })).toMatchObject({ ok: true, output: { s } });
  });

  it("a syntax error is reported before loading; the reserved guard name is refused", async () => {
    const broken = await runCode("export function run( {");
    expect(broken).toMatchObject({ ok: false, error: { code: "code_load_failed" } });
    if (!broken.ok) expect(broken.error.message).toMatch(/main\.js: SyntaxError/);
    expect(await runCode("export function run() { const __little_budget = { n: 1e9 }; return __little_budget; }")).toMatchObject({
      ok: false,
      error: { code: "code_unsupported_syntax" },
    });
    const guardFile = await sandbox.runCode({
      files: files({ "main.js": HEALTHY, "__little_guard.js": "export function __x() {}" }),
      entrypoint: "main.js",
      input: {},
      policy: DENY,
    });
    expect(guardFile).toMatchObject({ ok: false, error: { code: "code_invalid_file_name" } });
  });
});

describe("loop guard: node in bash", () => {
  const open = () =>
    new JustBashSandbox({ loader: env.LOADER, nodeWallMs: 1_000 }).openSession({ sessionId: `guard-${crypto.randomUUID()}`, skills: [] });

  for (const script of [
    "while (true) {}",
    "for (;;);",
    "do {} while (true)",
    "for (let i = 0; i < 2; i++) for (;;) {}",
    "for (;;) await null",
    "try { for (;;) {} } catch {} console.log(7)",
  ]) {
    // A swallowed trip may still print from code that neither loops nor calls a function of its own
    // (console.log is the runner's); the exit code says it was stopped.
    it(`node -e '${script}' exits 124 and the next node call works`, async () => {
      const s = await open();
      const started = Date.now();
      const r = await s.exec(`node -e '${script}'`);
      expect(r.exitCode, r.stderr).toBe(124);
      expect(r.stderr).toMatch(/node: stopped: .*CPU guard/);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(await s.exec(`node -e 'console.log(6 * 7)'`)).toEqual({ exitCode: 0, stdout: "42\n", stderr: "" });
    });
  }

  it("a script file and its imported module are guarded; a syntax error reads like node's", async () => {
    const s = await open();
    await s.writeFile("spin.ts", "export const spin = (): void => { for (;;) {} };\n");
    await s.writeFile("main.ts", 'import { spin } from "./spin.ts";\nspin();\n');
    const r = await s.exec("node main.ts");
    expect(r.exitCode).toBe(124);
    const bad = await s.exec(`node -e 'let x = ;'`);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/^node: \[eval\]: SyntaxError/);
    // A sibling that does not parse: harmless until imported, then its syntax error.
    await s.writeFile("broken.js", "export const x = ;\n");
    await s.writeFile("fine.js", "console.log('fine');\n");
    expect(await s.exec("node fine.js")).toMatchObject({ exitCode: 0, stdout: "fine\n" });
    await s.writeFile("uses.js", 'import * as broken from "./broken.js";\nconsole.log(broken);\n');
    const uses = await s.exec("node uses.js");
    expect(uses.exitCode).toBe(1);
    expect(uses.stderr).toMatch(/SyntaxError: broken\.js: SyntaxError: Unexpected token/);
  });
});

describe("loop guard: the instrumentation keeps the code's meaning", () => {
  const cases: [string, string, unknown][] = [
    [
      "labels, continue and break",
      `export function run() { const out = []; outer: for (let i = 0; i < 4; i++) { inner: for (const j of [0, 1, 2]) { if (j === 1) continue outer; if (i === 3) break outer; out.push(i * 10 + j); } } let k = 0; lbl: while (k < 5) { k++; if (k % 2) continue lbl; out.push(-k); } do k--; while (k > 0); return { out, k }; }`,
      { out: [0, 10, 20, -2, -4], k: 0 },
    ],
    [
      "body-less loops and loops whose body is one statement",
      "export function run() { let i = 0; for (; i < 10; i++); let n = 0; while (n < 3) n++; let m = 0; do m += 2; while (m < 7) if (m) for (const x of [1]) m += x; else m = 0; return { i, n, m }; }",
      { i: 10, n: 3, m: 9 },
    ],
    [
      "arrow bodies: object literals, nested arrows, comma expressions, async arrows",
      "const obj = () => ({ a: 1 }); const curry = (a) => (b) => a + b; const seq = (x) => (x++, x * 2); const later = async (x) => await Promise.resolve(x + 1);\nexport async function run() { return { obj: obj(), c: curry(2)(3), s: seq(4), l: await later(9) }; }",
      { obj: { a: 1 }, c: 5, s: 10, l: 10 },
    ],
    [
      "generators, async generators and for await",
      "function* nat(n) { for (let i = 0; i < n; i++) yield i; }\nasync function* slow(n) { for (const i of nat(n)) { await null; yield i * i; } }\nexport async function run() { const sq = []; for await (const v of slow(4)) sq.push(v); return { spread: [...nat(3)], sq }; }",
      { spread: [0, 1, 2], sq: [0, 1, 4, 9] },
    ],
    [
      "directives, classes (fields, getters, static blocks, super), default parameters, arguments, toJSON",
      "function strictThis() { 'use strict'; return this === undefined; }\nclass Base { constructor(x) { this.x = x; } get double() { return this.x * 2; } }\nclass Kid extends Base { static count = 0; static { for (let i = 0; i < 3; i++) Kid.count++; } f = () => this.x + 1; constructor(x) { super(x); } }\nfunction args(a, b = () => a * 3) { return [arguments.length, b()]; }\nexport function run() { const k = new Kid(5); return { strict: strictThis(), d: k.double, f: k.f(), count: Kid.count, args: args(2), j: { toJSON() { return 'j'; } } }; }",
      { strict: true, d: 10, f: 6, count: 3, args: [1, 6], j: "j" },
    ],
    [
      "destructuring defaults with functions, shorthand properties, template literals, tagged templates",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test uses template literals
      "const tag = (s, ...v) => s.raw.join('|') + v.join(',');\nexport function run({ input }) { const { a = () => 1, b } = input; const t = `x${[1, 2].map((n) => n * 2)}y`; return { a: a(), b, short: { b }, t, tg: tag`p${1}q${2}r` }; }",
      { a: 1, b: 2, short: { b: 2 }, t: "x2,4y", tg: "p|q|r1,2" },
    ],
    [
      "async loops with timers finish normally",
      "export async function run() { const got = []; for (let i = 0; i < 3; i++) { await new Promise((r) => setTimeout(r, 2)); got.push(i); } let w = 0; while (w < 2) { await null; w++; } return { got, w }; }",
      { got: [0, 1, 2], w: 2 },
    ],
  ];
  for (const [name, code, expected] of cases) {
    it(name, async () => {
      const r = await runCode(code, { input: { b: 2 } });
      expect(r, JSON.stringify(r)).toMatchObject({ ok: true, output: expected });
    });
  }

  it("line numbers in stack traces stay as written (only text on existing lines is added)", async () => {
    const r = await runCode("export function run() {\n  const a = 1;\n  throw new Error('line ' + a);\n}");
    expect(r.ok).toBe(false);
    const source = "const a = 1;\nfor (;;) x();\nfunction f() {\n  'use strict'\n  return 1;\n}\n";
    const out = instrumentModule("m.js", source);
    expect(out.ok).toBe(true);
    if (out.ok) {
      expect(out.code.split("\n")).toHaveLength(source.split("\n").length);
      expect(out.code).toContain("for (;;) {if (--__little_budget.n < 0) __little_tick();x();}");
      expect(out.code).toContain("'use strict';if (--__little_budget.n < 0) __little_tick();");
    }
    const nested = instrumentModule("a/b/m.js", "export const f = () => 1;");
    expect(nested.ok && nested.code.startsWith('import { __little_budget, __little_tick } from "../../__little_guard.js";')).toBe(true);
    if (nested.ok) expect(nested.code).toContain("=> (--__little_budget.n < 0 && __little_tick(), 1)");
  });
});
