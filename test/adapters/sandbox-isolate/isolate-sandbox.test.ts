import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { RunCodeRequest } from "../../../src/ports/sandbox.ts";

const sandbox = new IsolateSandbox({ loader: env.LOADER });
const DENY = { network: "deny", env: "deny", fs: "deny" } as const;
const SCORE = "export async function run({ input }) {\n  return { score: input.signals.length / 10 };\n}";

function files(map: Record<string, string>): RunCodeRequest["files"] {
  return Object.fromEntries(Object.entries(map).map(([name, content]) => [name, { content, sha256: digestText(content) }]));
}

const run = (code: string, input: unknown = {}, extra: Partial<RunCodeRequest> = {}) =>
  sandbox.runCode({ files: files({ "main.ts": code }), entrypoint: "main.ts", input, policy: DENY, ...extra });

describe("IsolateSandbox.runCode (Worker Loader isolates)", () => {
  it("runs the seed's score.ts with its real digest and returns the output", async () => {
    const r = await sandbox.runCode({
      files: { "score.ts": { content: SCORE, sha256: "sha256:1ed396c7cbeba5c323250026707a76c1e1ad3f62572334094e5167c357c6de7c" } },
      entrypoint: "score.ts",
      input: { signals: [1, 2, 3] },
      policy: DENY,
    });
    expect(r).toMatchObject({ ok: true, output: { score: 0.3 } });
  });

  it("strips TypeScript (types, interfaces, enums) and imports between files", async () => {
    const r = await sandbox.runCode({
      files: files({
        "main.ts":
          'import { double } from "./util.ts";\ninterface In { n: number }\nenum Mode { A = "a" }\nexport async function run({ input }: { input: In }): Promise<{ n: number; mode: string }> {\n  return { n: double(input.n), mode: Mode.A };\n}',
        "util.ts": "export const double = (n: number): number => n * 2;",
      }),
      entrypoint: "main.ts",
      input: { n: 21 },
      policy: DENY,
    });
    expect(r).toMatchObject({ ok: true, output: { n: 42, mode: "a" } });
  });

  it("captures console output", async () => {
    const r = await run('export function run() { console.log("hello", { a: 1 }); console.error("oops"); return 1; }');
    expect(r.logs).toEqual(['log: hello {"a":1}', "error: oops"]);
  });

  it("refuses a file whose content does not match its sha256, before loading anything", async () => {
    const r = await sandbox.runCode({
      files: { "main.ts": { content: SCORE.replace("10", "1"), sha256: digestText(SCORE) } },
      entrypoint: "main.ts",
      input: {},
      policy: DENY,
    });
    expect(r).toMatchObject({ ok: false, error: { code: "code_integrity" } });
  });

  it.each([
    ["a thrown error", "export function run() { throw new TypeError('bad input'); }", "code_threw", /TypeError: bad input/],
    ["no run export", "export const x = 1;", "code_no_run_export", /run/],
    [
      "a namespace (sucrase would drop it)",
      "namespace N { export const x = 1 }\nexport function run() { return 1 }",
      "code_unsupported_syntax",
      /namespace/,
    ],
    ["a syntax error", "export function run( { return 1 }", "code_unsupported_syntax", /main\.ts/],
    ["an oversized output", "export function run() { return 'x'.repeat(2 * 1024 * 1024); }", "code_output_too_large", /limit/],
  ])("reports %s with a stable code", async (_name, code, errorCode, message) => {
    const r = await run(code);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(errorCode);
      expect(r.error.message).toMatch(message);
    }
  });

  it("fs: allow turns nodejs_compat on (workerd's virtual node:fs); deny switches it off even where the date enables it", async () => {
    const code =
      'export async function run() { const fs = await import("node:fs"); return { fs: typeof fs.readFileSync, process: typeof globalThis.process }; }';
    const allowed = await run(code, {}, { policy: { ...DENY, fs: "allow" } });
    expect(allowed).toMatchObject({ ok: true, output: { fs: "function", process: "object" } });
    const denied = await run(code);
    expect(denied).toMatchObject({ ok: false, error: { code: "code_threw", message: expect.stringMatching(/No such module "node:fs"/) } });
  });

  it("denies network: fetch throws inside the isolate", async () => {
    const r = await run('export async function run() { await fetch("https://example.com/"); return "reached"; }');
    expect(r).toMatchObject({ ok: false, error: { code: "code_threw" } });
  });

  // A synchronous `for (;;) {}` is stopped by the isolate's CPU limit on Cloudflare; local workerd
  // does not enforce that limit and runs every isolate on one thread, so such a loop would hang the
  // test process (documented in docs/sandbox.md). Code that keeps yielding is stopped by wall time.
  it("stops code that never finishes at the wall-time limit", async () => {
    const r = await run(
      "export async function run() { for (;;) await new Promise((r) => setTimeout(r, 5)); }",
      {},
      { limits: { cpuMs: 50, wallMs: 300 } },
    );
    expect(r).toMatchObject({ ok: false, error: { code: "code_timeout" } });
  });
});
