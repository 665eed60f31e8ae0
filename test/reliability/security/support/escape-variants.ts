import type { Rng } from "./random.ts";

/**
 * Ways to reach the network from inside an isolate, each the body of an async function that gets
 * the target URL as `u` and resolves only if a connection was made. Obfuscated names, other
 * realms (eval, Function), other APIs (Request, sockets, WebSocket, dynamic import) and deferred
 * calls (timers, microtasks).
 */
export const NETWORK_TECHNIQUES: Record<string, string> = {
  fetch: "const r = await fetch(u); return r.status;",
  "fetch(Request)": "const r = await fetch(new Request(u)); return r.status;",
  "fetch(URL)": "const r = await fetch(new URL(u)); return r.status;",
  "globalThis[concat]": 'const r = await globalThis["fe" + "tch"](u); return r.status;',
  "self.fetch": "const r = await self.fetch(u); return r.status;",
  "Reflect.apply": "const r = await Reflect.apply(fetch, globalThis, [u]); return r.status;",
  "fetch.call": "const r = await fetch.call(undefined, u); return r.status;",
  "atob name": 'const r = await globalThis[atob("ZmV0Y2g=")](u); return r.status;',
  "fromCharCode name": "const r = await globalThis[String.fromCharCode(102, 101, 116, 99, 104)](u); return r.status;",
  "property descriptor": 'const f = Object.getOwnPropertyDescriptor(globalThis, "fetch").value; const r = await f(u); return r.status;',
  destructured: "const { fetch: f } = globalThis; const r = await f(u); return r.status;",
  "indirect eval": 'const f = (0, eval)("fet" + "ch"); const r = await f(u); return r.status;',
  "Function constructor": 'const r = await new Function("u", "return fetch(u)")(u); return r.status;',
  "constructor chain": 'const r = await (() => {}).constructor("u", "return fetch(u)")(u); return r.status;',
  microtask: "const r = await Promise.resolve().then(() => fetch(u)); return r.status;",
  setTimeout: "const r = await new Promise((ok, no) => setTimeout(() => fetch(u).then(ok, no), 0)); return r.status;",
  resolveOverride: 'const r = await fetch(u, { cf: { resolveOverride: "127.0.0.1" } }); return r.status;',
  "redirect manual": 'const r = await fetch(u, { redirect: "manual" }); return r.status;',
  "POST with body": 'const r = await fetch(u, { method: "POST", body: "exfiltrated" }); return r.status;',
  "dynamic import of the URL": "const m = await import(u); return typeof m;",
  "dynamic import of a data: module":
    'const m = await import("data:text/javascript,export default 1"); return String(await fetch(u).then((r) => r.status));',
  "sockets via concat": [
    'const { connect } = await import("cloudflare:" + "sockets");',
    "const url = new URL(u);",
    'const s = connect({ hostname: url.hostname.replace(/^\\[|\\]$/g, ""), port: Number(url.port || 80) });',
    // workerd resolves `opened` lazily and fails on first use, so only bytes read back count as reached.
    "await s.opened; const w = s.writable.getWriter();",
    'await w.write(new TextEncoder().encode("GET / HTTP/1.0\\r\\n\\r\\n"));',
    "const { value } = await s.readable.getReader().read();",
    'if (!value || value.length === 0) throw new Error("no bytes came back"); return new TextDecoder().decode(value);',
  ].join(" "),
  WebSocket: [
    'const ws = new WebSocket(u.replace(/^http/, "ws"));',
    'return await new Promise((ok, no) => { ws.addEventListener("open", () => ok("open")); ws.addEventListener("error", () => no(new Error("ws error"))); });',
  ].join(" "),
};

const HOSTS = [
  "example.com",
  "127.0.0.1",
  "localhost",
  "LOCALHOST",
  "localhost.",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "0.0.0.0",
  "127.1",
  "2130706433",
  "0x7f000001",
  "017700000001",
  "%6c%6f%63%61%6c%68%6f%73%74",
  "169.254.169.254",
  "metadata.google.internal",
  "10.0.0.1",
  "192.168.1.1",
  "little.test",
  "user:pass@127.0.0.1",
];
const PORTS = ["", ":22", ":80", ":443", ":6379", ":8787", ":9229"];
const SCHEMES = ["http", "https"];
const PATHS = ["/", "/latest/meta-data/", "/v1/health", "/?q=%00"];

/** A target URL made of a random scheme, host spelling, port and path. */
export function randomTarget(rng: Rng): string {
  return `${rng.pick(SCHEMES)}://${rng.pick(HOSTS)}${rng.pick(PORTS)}${rng.pick(PATHS)}`;
}

/**
 * Hosts that try to slip past a `NetworkGate` allowlist of `api.example.com` and `*.trusted.test`:
 * suffix and prefix tricks, userinfo, case, trailing dots, encodings, other ports.
 */
export const GATE_BYPASSES = [
  "http://api.example.com.evil.test/",
  "http://evil.test/api.example.com",
  "http://api.example.com@evil.test/",
  "http://evil.test/?h=api.example.com",
  "http://evil.test/#api.example.com",
  "http://API.EXAMPLE.COM.evil.test/",
  "http://xapi.example.com/",
  "http://example.com/",
  "http://trusted.test.evil.test/",
  "http://eviltrusted.test/",
  "http://trusted.test/",
  "http://127.0.0.1/",
  "http://localhost:8787/",
  "http://169.254.169.254/",
  "http://api%2eexample%2ecom.evil.test/",
];

/** Node built-ins a denied filesystem must keep out, each spelled several ways. */
export const BUILTIN_MODULES = [
  "node:fs",
  "fs",
  "node:fs/promises",
  "node:child_process",
  "child_process",
  "node:net",
  "node:os",
  "node:worker_threads",
  "node:process",
  "node:module",
  "node:vm",
];

/**
 * Ways to load a module named `m` (a variable in scope) at run time: plain, built from pieces,
 * decoded, through a data: module that re-exports it, through a computed template. Each resolves
 * to the module namespace.
 */
export const IMPORT_TECHNIQUES: Record<string, string> = {
  "import(m)": "return await import(m);",
  "import(concat)": "const [a, b] = [m.slice(0, 3), m.slice(3)]; return await import(a + b);",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: source code for the isolate, not a template here
  "import(template)": "return await import(`${m}`);",
  "import(atob)": "return await import(atob(btoa(m)));",
  "import(reversed)": 'return await import(m.split("").reverse().reverse().join(""));',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: source code for the isolate, not a template here
  "data: re-export": 'return await import("data:text/javascript," + encodeURIComponent(`export * from "${m}";`));',
  "require via globalThis": "return globalThis.require(m);",
  "process.getBuiltinModule": "return globalThis.process.getBuiltinModule(m);",
  // node:process loads even without nodejs_compat (workerd's own), with an empty env.
  "node:process getBuiltinModule": 'const p = await import("node:process"); return (p.getBuiltinModule ?? p.default.getBuiltinModule)(m);',
  "module.createRequire": 'const { createRequire } = await import("node:" + "module"); return createRequire("/")(m);',
};

/** Whether a loaded namespace is a real Node built-in (something with its functions). */
export const LOOKS_LOADED =
  "(ns) => ns != null && ['readFileSync', 'readFile', 'execSync', 'spawn', 'connect', 'createServer', 'hostname', 'Worker', 'cwd', 'createRequire', 'runInThisContext'].some((k) => typeof ns[k] === 'function' || typeof ns.default?.[k] === 'function')";
