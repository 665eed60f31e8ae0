/// <reference types="vite/client" />
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { hostAllowed } from "../../../src/adapters/sandbox-isolate/network-gate.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { CodePolicy, RunCodeRequest, RunCodeResult } from "../../../src/ports/sandbox.ts";
import {
  BUILTIN_MODULES,
  GATE_BYPASSES,
  IMPORT_TECHNIQUES,
  LOOKS_LOADED,
  NETWORK_TECHNIQUES,
  randomTarget,
} from "./support/escape-variants.ts";
import { loaderCalls } from "./support/loader-call-sites.ts";
import { Rng, reportFigure, tortureSeeds, tortureTimeout } from "./support/random.ts";

// Item 9 of the reliability suite: generated variants of the network escapes of
// test/adapters/sandbox-isolate/escapes.test.ts (obfuscated fetch, sockets, WebSocket, imports,
// many spellings of local and metadata hosts and ports), the isolate's env against its allowlist
// (empty) under every policy, and a source check that every Worker Loader call sets globalOutbound.
// No synchronous endless loop or heap bomb here: local workerd enforces neither CPU nor memory
// limits, and either would hang or kill the test process (docs/sandbox.md).

const ALLOWED_HOSTS = ["api.example.com", "*.trusted.test"];
const sandbox = new IsolateSandbox({
  loader: env.LOADER,
  networkGate: (hosts) => exports.NetworkGate({ props: { hosts } }),
  memory: new MemoryMemoryStore(),
});
const DENY: CodePolicy = { network: "deny", env: "deny", fs: "deny" };

function files(code: string): RunCodeRequest["files"] {
  return { "main.js": { content: code, sha256: digestText(code) } };
}

/** A code.run module that tries one technique against the URL it gets as input. */
const techniqueModule = (body: string) => `export async function run({ input }) { const u = input.url; ${body} }`;

const runTechnique = (body: string, url: string, policy: CodePolicy = DENY, networkHosts?: string[]): Promise<RunCodeResult> =>
  sandbox.runCode({
    files: files(techniqueModule(body)),
    entrypoint: "main.js",
    input: { url },
    policy,
    limits: { wallMs: 3_000 },
    ...(networkHosts ? { networkHosts } : {}),
  });

describe("network escapes, generated", () => {
  it(
    "no technique reaches any host spelling, port or scheme from code.run under network deny",
    async () => {
      const rng = new Rng(0x1f83d9ab);
      const perTechnique = Math.max(2, tortureSeeds());
      const techniques = Object.entries(NETWORK_TECHNIQUES);
      const escapes: string[] = [];
      const outcomes = new Map<string, number>();
      let attempted = 0;
      for (const [name, body] of techniques) {
        const targets = Array.from({ length: perTechnique }, () => randomTarget(rng));
        const results = await Promise.all(targets.map((url) => runTechnique(body, url)));
        results.forEach((r, i) => {
          attempted++;
          const outcome = r.ok ? "ok" : r.error.code;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (r.ok) escapes.push(`${name} → ${targets[i]}: ${JSON.stringify(r.output)}`);
        });
      }
      reportFigure("sandbox network escapes (code.run)", {
        attempted,
        techniques: techniques.length,
        escapes: escapes.length,
        outcomes: JSON.stringify(Object.fromEntries(outcomes)),
      });
      expect(escapes).toEqual([]);
    },
    tortureTimeout(3000),
  );

  it(
    "no technique reaches the network from node in bash",
    async () => {
      const rng = new Rng(0x5be0cd19);
      const s = await sandbox.openSession({ sessionId: `rel-esc-${crypto.randomUUID()}`, skills: [] });
      const escapes: string[] = [];
      let attempted = 0;
      const count = Math.min(Object.keys(NETWORK_TECHNIQUES).length, Math.max(8, tortureSeeds()));
      for (const [name, body] of rng.shuffle(Object.entries(NETWORK_TECHNIQUES)).slice(0, count)) {
        const url = randomTarget(rng);
        const script = `const u = ${JSON.stringify(url)}; const out = await (async () => { ${body} })(); console.log("REACHED", out);`;
        const r = await s.exec(`node -e '${script.replaceAll("'", `'"'"'`)}'`);
        attempted++;
        if (r.exitCode === 0 || r.stdout.includes("REACHED")) escapes.push(`${name} → ${url}: ${r.stdout}`);
      }
      reportFigure("sandbox network escapes (node)", { attempted, escapes: escapes.length });
      expect(escapes).toEqual([]);
    },
    tortureTimeout(2000),
  );

  it("with network allowed for an allowlist, the gate answers 403 for every host outside it", async () => {
    const rng = new Rng(0x6a09e668);
    const policy: CodePolicy = { network: "allow", env: "deny", fs: "deny" };
    const leaks: string[] = [];
    const techniques = ["fetch", "fetch(Request)", "globalThis[concat]", "POST with body", "redirect manual"] as const;
    let attempted = 0;
    for (const url of GATE_BYPASSES) {
      expect(hostAllowed(new URL(url), ALLOWED_HOSTS), url).toBe(false);
      const technique = rng.pick(techniques);
      const r = await runTechnique(
        `${NETWORK_TECHNIQUES[technique]?.replace("return r.status;", "return { status: r.status, body: await r.text() };")}`,
        url,
        policy,
        ALLOWED_HOSTS,
      );
      attempted++;
      const answer = r.ok ? (r.output as { status: number; body: string }) : null;
      // Refused in the isolate (sockets, odd URLs) or answered by the gate itself: both stay inside.
      if (answer && !(answer.status === 403 && answer.body.includes("not in this workflow's network allowlist")))
        leaks.push(`${technique} → ${url}: ${JSON.stringify(answer)}`);
    }
    // Sockets bypass globalOutbound-as-fetcher; they must fail even under network allow.
    const socket = await runTechnique(NETWORK_TECHNIQUES["sockets via concat"] as string, "http://127.0.0.1:22/", policy, ALLOWED_HOSTS);
    expect(socket.ok).toBe(false);
    attempted++;
    reportFigure("sandbox gate bypasses", { attempted, leaks: leaks.length });
    expect(leaks).toEqual([]);
  });
});

describe("Node built-ins under fs deny, generated", () => {
  it(
    "no spelling of an import, require or getBuiltinModule loads a Node built-in in code.run",
    async () => {
      const rng = new Rng(0x9b05688e);
      const loaded: string[] = [];
      const outcomes = new Map<string, number>();
      let attempted = 0;
      for (const [name, body] of Object.entries(IMPORT_TECHNIQUES)) {
        const code = `const looksLoaded = ${LOOKS_LOADED};\nexport async function run({ input }) { const m = input.m; const ns = await (async () => { ${body} })(); return { loaded: looksLoaded(ns) }; }`;
        const modules = rng.shuffle(BUILTIN_MODULES).slice(0, Math.min(BUILTIN_MODULES.length, Math.max(4, tortureSeeds())));
        const results = await Promise.all(
          modules.map((m) =>
            sandbox.runCode({ files: files(code), entrypoint: "main.js", input: { m }, policy: DENY, limits: { wallMs: 3_000 } }),
          ),
        );
        results.forEach((r, i) => {
          attempted++;
          const outcome = r.ok ? `ok:${(r.output as { loaded: boolean }).loaded}` : r.error.code;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (r.ok && (r.output as { loaded: boolean }).loaded) loaded.push(`${name} → ${modules[i]}`);
        });
      }
      reportFigure("sandbox built-in imports (code.run)", {
        attempted,
        loaded: loaded.length,
        outcomes: JSON.stringify(Object.fromEntries(outcomes)),
      });
      expect(loaded).toEqual([]);
    },
    tortureTimeout(2000),
  );
});

describe("the isolate's env equals its allowlist (empty) under every policy", () => {
  const probe = [
    'import * as workers from "cloudflare:workers";',
    "export async function run() {",
    "  const names = Object.getOwnPropertyNames(globalThis).filter((n) => /^[A-Z][A-Z0-9_]+$/.test(n) && n !== 'JSON' && n !== 'URL');",
    "  return {",
    "    workersEnv: Object.keys(workers.env ?? {}),",
    "    thisEnv: this?.env === undefined ? null : Object.keys(this.env),",
    "    processEnv: typeof process === 'undefined' ? null : Object.keys(process.env ?? {}),",
    "    nodeProcessEnv: Object.keys((await import('node:process').catch(() => null))?.env ?? {}),",
    "    bindingLikeGlobals: names,",
    "  };",
    "}",
  ].join("\n");

  const policies: CodePolicy[] = [];
  for (const network of ["deny", "allow"] as const)
    for (const envMode of ["deny", "allow"] as const)
      for (const fs of ["deny", "allow"] as const) policies.push({ network, env: envMode, fs });

  it.each(policies.map((p) => [JSON.stringify(p), p] as const))(
    "%s: no binding, secret or variable of the Worker is visible",
    async (_name, policy) => {
      const r = await sandbox.runCode({
        files: files(probe),
        entrypoint: "main.js",
        input: {},
        policy,
        ...(policy.network === "allow" ? { networkHosts: ALLOWED_HOSTS } : {}),
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      if (!r.ok) return;
      const seen = r.output as {
        workersEnv: string[];
        thisEnv: string[] | null;
        processEnv: string[] | null;
        nodeProcessEnv: string[];
        bindingLikeGlobals: string[];
      };
      expect(seen.workersEnv).toEqual([]);
      expect(seen.thisEnv ?? []).toEqual([]);
      expect(seen.processEnv ?? []).toEqual([]);
      expect(seen.nodeProcessEnv).toEqual([]);
      expect(seen.bindingLikeGlobals).toEqual([]);
      reportFigure("sandbox env", { policy: JSON.stringify(policy), visibleNames: 0 });
    },
  );

  it("node in bash sees an empty process.env and an empty cloudflare:workers env", async () => {
    const s = await sandbox.openSession({ sessionId: `rel-env-${crypto.randomUUID()}`, skills: [] });
    const r = await s.exec(
      `node -e 'const w = await import("cloudflare:workers"); console.log(JSON.stringify([Object.keys(process.env), Object.keys(w.env ?? {}), Object.getOwnPropertyNames(globalThis).filter((n) => /^[A-Z][A-Z0-9_]+$/.test(n) && n !== "JSON" && n !== "URL")]))'`,
    );
    expect(r).toEqual({ exitCode: 0, stdout: "[[],[],[]]\n", stderr: "" });
  });
});

describe("the source", () => {
  // Every TypeScript file of the Worker, read as text at build time.
  const sources = {
    ...import.meta.glob<string>("../../../src/**/*.ts", { query: "?raw", import: "default", eager: true }),
    ...import.meta.glob<string>("../../../durable-objects/**/*.ts", { query: "?raw", import: "default", eager: true }),
  };

  it("every Worker Loader call site sets globalOutbound", () => {
    const calls = loaderCalls(sources);
    const files = new Set(calls.map((c) => c.file));
    reportFigure("loader call sites", { files: Object.keys(sources).length, calls: calls.length });
    // The two known call sites (code.run and bash's node) must be found, or the scan is blind.
    expect([...files].some((f) => f.endsWith("sandbox-isolate/isolate-sandbox.ts"))).toBe(true);
    expect([...files].some((f) => f.endsWith("sandbox-isolate/node-command.ts"))).toBe(true);
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    for (const call of calls) expect(call.args, `${call.file}:${call.line} ${call.method}()`).toMatch(/\bglobalOutbound\s*:/);
  });

  it("the scanner itself finds a call without globalOutbound", () => {
    const calls = loaderCalls({
      "fake.ts": 'const w = env.LOADER.get("id", () => ({ mainModule: "m.js", modules: { "m.js": "x" }, env: {} }));',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).not.toMatch(/globalOutbound/);
  });
});
