import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { CodePolicy, RunCodeRequest, Sandbox } from "../../../src/ports/sandbox.ts";

// Issue 24, hole 1, at the adapter: which calls share a warm isolate (one run, one call at a time)
// and which never do; and `cloudflare:workers`' isolate-level exports out of user code's reach.

const DENY: CodePolicy = { network: "deny", env: "deny", fs: "deny" };
const RECORDER = `const seen = [];
export function run({ input }) { seen.push(input); globalThis.__seen = [...(globalThis.__seen ?? []), input]; return { module: [...seen], global: globalThis.__seen }; }
`;

function request(content: string, input: unknown, policy: CodePolicy = DENY, extra: Partial<RunCodeRequest> = {}): RunCodeRequest {
  return { files: { "main.js": { content, sha256: digestText(content) } }, entrypoint: "main.js", input, policy, ...extra };
}

const output = async (sandbox: Sandbox, content: string, input: unknown, policy?: CodePolicy) => {
  const r = await sandbox.runCode(request(content, input, policy));
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return r.ok ? r.output : undefined;
};

describe("warm isolates: one run, one call at a time", () => {
  it("calls of one run reuse a warm isolate; another run, another tenant and an unscoped call never see its state", async () => {
    const sandbox = new IsolateSandbox({ loader: env.LOADER });
    const id = crypto.randomUUID();
    const run1 = sandbox.forScope(`tenant-a:run-1-${id}`);
    expect(await output(run1, RECORDER, 1)).toEqual({ module: [1], global: [1] });
    // Warm within the run: that is the reuse kept (its cost is in BENCHMARKS.md).
    expect(await output(run1, RECORDER, 2)).toEqual({ module: [1, 2], global: [1, 2] });
    expect(await output(sandbox.forScope(`tenant-a:run-2-${id}`), RECORDER, 3)).toEqual({ module: [3], global: [3] });
    expect(await output(sandbox.forScope(`tenant-b:run-1-${id}`), RECORDER, 4)).toEqual({ module: [4], global: [4] });
    expect(await output(sandbox, RECORDER, 5)).toEqual({ module: [5], global: [5] });
    expect(await output(sandbox, RECORDER, 6)).toEqual({ module: [6], global: [6] });
    expect(sandbox.heldIsolates).toBe(0);
  });

  it("concurrent calls of one run get isolates of their own: log lines never swap, the loop guard of one never disarms the other", async () => {
    const sandbox = new IsolateSandbox({ loader: env.LOADER });
    const run = sandbox.forScope(`tenant:run-${crypto.randomUUID()}`);
    // Each call logs its own tag before and after a wait in which the others run; one spins.
    const code = `export async function run({ input }) {
  console.log("start " + input.tag);
  await new Promise((r) => setTimeout(r, 100));
  if (input.spin) for (;;) {}
  console.log("end " + input.tag);
  return input.tag;
}`;
    const calls = ["a", "b", "c"].map((tag) => run.runCode(request(code, { tag }, DENY, { limits: { cpuMs: 5_000, wallMs: 10_000 } })));
    const spin = run.runCode(request(code, { tag: "s", spin: true }, DENY, { limits: { cpuMs: 300, wallMs: 10_000 } }));
    const results = await Promise.all([...calls, spin]);
    for (const [i, tag] of ["a", "b", "c"].entries())
      expect(results[i]).toMatchObject({ ok: true, output: tag, logs: [`log: start ${tag}`, `log: end ${tag}`] });
    expect(results[3]).toMatchObject({ ok: false, error: { code: "code_timeout" }, logs: ["log: start s"] });
    expect(sandbox.heldIsolates).toBe(0);
  });
});

describe("cloudflare:workers in user code: no abortIsolate, no exports", () => {
  const probe = `import * as all from "cloudflare:workers";
import { env, WorkerEntrypoint } from "cloudflare:workers";
export async function run() {
  const dynamic = await import("cloudflare:" + "workers");
  const tricky = await import({ n: 0, toString() { return this.n++ === 0 ? "./main.js" : "cloudflare:workers"; } });
  return {
    staticKeys: Object.keys(all).filter((k) => /abort|exports/i.test(k)),
    dynamicKeys: Object.keys(dynamic).filter((k) => /abort|exports/i.test(k)),
    trickyIsSelf: typeof tricky.run === "function",
    env: Object.keys(env),
    entrypoint: typeof WorkerEntrypoint,
    builtin: typeof process === "undefined" ? null : Object.keys(process.getBuiltinModule("cloudflare:workers")).filter((k) => /abort|exports/i.test(k)),
  };
}`;

  it.each([
    ["fs: deny", DENY, null],
    ["fs: allow (nodejs_compat)", { ...DENY, fs: "allow" } as CodePolicy, []],
  ])("static, dynamic and builtin imports get the shim under %s", async (_name, policy, builtin) => {
    const sandbox = new IsolateSandbox({ loader: env.LOADER });
    expect(await output(sandbox, probe, {}, policy)).toEqual({
      staticKeys: [],
      dynamicKeys: [],
      trickyIsSelf: true,
      env: [],
      entrypoint: "function",
      builtin,
    });
  });

  it("importing abortIsolate by name finds nothing; re-exporting it does not load", async () => {
    const sandbox = new IsolateSandbox({ loader: env.LOADER });
    const named = `import * as w from "cloudflare:workers";\nexport function run() { return typeof w.abortIsolate; }`;
    expect(await output(sandbox, named, {})).toBe("undefined");
    const reexport = `export { abortIsolate } from "cloudflare:workers";\nexport function run() { return 1; }`;
    expect(await sandbox.runCode(request(reexport, {}))).toMatchObject({ ok: false, error: { code: "code_load_failed" } });
  });

  it("node in bash gets the shim too", async () => {
    const sandbox = new IsolateSandbox({ loader: env.LOADER });
    const session = await sandbox.openSession({ sessionId: `shim-${crypto.randomUUID()}`, skills: [] });
    await session.writeFile(
      "probe.mjs",
      'import * as w from "cloudflare:workers";\nconsole.log(typeof w.abortIsolate, typeof w.exports, typeof w.env);',
    );
    expect(await session.exec("node probe.mjs")).toMatchObject({ exitCode: 0, stdout: "undefined undefined object\n" });
  });
});
