import { LOOP_GUARD_MODULE } from "./loop-guard-source.ts";

/** The main module's name in a `node` isolate; user modules may not use it. */
export const NODE_RUNNER_MODULE = "__little_node_runner.js";

/** What the host sends the `node` isolate for one run. */
export type NodeRunRequest = {
  /** The module to import (a key of the isolate's modules); its default export runs the script. */
  readonly main: string;
  /** `-p`: print what the script's function returns. */
  readonly print: boolean;
  readonly argv: readonly string[];
  readonly stdin: string;
  readonly cwd: string;
  readonly wallMs: number;
  /** How long the code may run without yielding before the loop guard stops it (exit 124). */
  readonly cpuMs: number;
  readonly maxOutputChars: number;
};

/** What the `node` isolate answers. */
export type NodeRunResponse = { readonly stdout: string; readonly stderr: string; readonly exitCode: number; readonly timedOut: boolean };

/**
 * The main module of a `node` isolate. Before it imports the user's module it installs a small
 * Node-like world: `console` writing to captured stdout/stderr, a `process` shim (argv, an empty
 * env, stdout/stderr.write, exit, exitCode, a one-shot stdin), a `require` that explains itself,
 * and timers that are tracked so the run ends when no timer is pending (as Node exits when its
 * event loop is empty). After the wall-time deadline new timers never fire, so an endless async
 * loop stops instead of spinning in the isolate. A synchronous endless loop is stopped by the loop
 * guard instrumented into the user's modules (exit 124; loop-guard-source.ts), on Cloudflare also
 * by the isolate's CPU limit (see docs/sandbox.md).
 */
export const NODE_RUNNER_SOURCE = String.raw`import { arm, release, trippedReason } from "./${LOOP_GUARD_MODULE}";
import { WorkerEntrypoint } from "cloudflare:workers";

const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
const realSetInterval = globalThis.setInterval.bind(globalThis);
const realClearInterval = globalThis.clearInterval.bind(globalThis);
const stringify = JSON.stringify;

class ExitSignal {
  constructor(code) { this.code = code; }
}

function quote(s) { return "'" + s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n") + "'"; }

function inspect(value, depth = 0, seen = new Set()) {
  switch (typeof value) {
    case "string": return depth === 0 ? value : quote(value);
    case "number": return Object.is(value, -0) ? "-0" : String(value);
    case "bigint": return value + "n";
    case "undefined": return "undefined";
    case "boolean": return String(value);
    case "symbol": return value.toString();
    case "function": return "[Function: " + (value.name || "(anonymous)") + "]";
  }
  if (value === null) return "null";
  if (value instanceof Error) return value.stack || value.name + ": " + value.message;
  if (seen.has(value)) return "[Circular]";
  if (value instanceof Date) return isNaN(value) ? "Invalid Date" : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (depth > 2) return Array.isArray(value) ? "[Array]" : "[Object]";
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.slice(0, 100).map((v) => inspect(v, depth + 1, seen));
      if (value.length > 100) items.push("... " + (value.length - 100) + " more items");
      return items.length ? "[ " + items.join(", ") + " ]" : "[]";
    }
    if (value instanceof Map) return "Map(" + value.size + ") {" + [...value].slice(0, 100).map(([k, v]) => " " + inspect(k, depth + 1, seen) + " => " + inspect(v, depth + 1, seen)).join(",") + (value.size ? " }" : "}");
    if (value instanceof Set) return "Set(" + value.size + ") {" + [...value].slice(0, 100).map((v) => " " + inspect(v, depth + 1, seen)).join(",") + (value.size ? " }" : "}");
    const keys = Object.keys(value);
    const body = keys.slice(0, 100).map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k)) + ": " + inspect(value[k], depth + 1, seen));
    const name = value.constructor && value.constructor !== Object && typeof value.constructor.name === "string" ? value.constructor.name + " " : "";
    return body.length ? name + "{ " + body.join(", ") + " }" : name + "{}";
  } finally {
    seen.delete(value);
  }
}

function format(args) {
  if (typeof args[0] === "string" && args[0].includes("%")) {
    let i = 1;
    const first = args[0].replace(/%[sdifjoOc%]/g, (m) => {
      if (m === "%%") return "%";
      if (i >= args.length) return m;
      const v = args[i++];
      switch (m) {
        case "%s": return typeof v === "string" ? v : inspect(v, 1);
        case "%d": case "%i": return String(m === "%i" ? Math.trunc(Number(v)) : Number(v));
        case "%f": return String(Number(v));
        case "%j": try { return stringify(v); } catch { return "[Circular]"; }
        case "%c": return "";
        default: return inspect(v, 1);
      }
    });
    return [first, ...args.slice(i).map((a) => inspect(a))].join(" ");
  }
  return args.map((a) => inspect(a)).join(" ");
}

export class NodeRunner extends WorkerEntrypoint {
  async run(request) {
    arm({ cpuMs: request.cpuMs, wallMs: request.wallMs });
    try {
      return await runOnce(request);
    } finally {
      release();
    }
  }
}

async function runOnce(request) {
    const out = { stdout: "", stderr: "", size: 0, truncated: false };
    const write = (stream, text) => {
      if (state.done) return true;
      text = String(text);
      const room = request.maxOutputChars - out.size;
      if (room <= 0) { out.truncated = true; return true; }
      const piece = text.length > room ? text.slice(0, room) : text;
      if (piece.length < text.length) out.truncated = true;
      out[stream] += piece;
      out.size += piece.length;
      return true;
    };
    const state = { done: false, exitCode: null, timedOut: false, mainSettled: false, pending: 0, deadline: Date.now() + request.wallMs };
    let finish;
    const finished = new Promise((resolve) => { finish = resolve; });
    const end = (code) => {
      if (state.done) return;
      state.exitCode = code;
      state.done = true;
      finish();
    };
    const uncaught = (error) => {
      if (error instanceof ExitSignal) return end(error.code);
      if (trippedReason()) return end(124);
      const text = error instanceof Error ? (error.stack || error.name + ": " + error.message) : "Uncaught " + inspect(error, 1);
      write("stderr", text + "\n");
      end(1);
    };
    const idleCheck = () => {
      if (state.mainSettled && state.pending === 0 && !state.done) realSetTimeout(() => { if (state.pending === 0) end(process.exitCode ?? 0); }, 0);
    };
    // Runs a callback the way Node's event loop would: a throw ends the process with code 1, a
    // returned promise keeps it alive until it settles.
    const guarded = (fn, args) => {
      if (state.done) return;
      let result;
      try { result = fn(...args); } catch (error) { return uncaught(error); }
      if (result && typeof result.then === "function") {
        state.pending++;
        result.then(() => { state.pending--; idleCheck(); }, (error) => { state.pending--; uncaught(error); });
      }
    };

    const timers = new Map();
    globalThis.setTimeout = (fn, ms = 0, ...args) => {
      if (state.done || Date.now() > state.deadline || typeof fn !== "function") return 0;
      state.pending++;
      const id = realSetTimeout(() => {
        if (!timers.delete(id)) return;
        state.pending--;
        guarded(fn, args);
        idleCheck();
      }, ms);
      timers.set(id, "timeout");
      return id;
    };
    globalThis.setInterval = (fn, ms = 0, ...args) => {
      if (state.done || Date.now() > state.deadline || typeof fn !== "function") return 0;
      state.pending++;
      const id = realSetInterval(() => {
        if (Date.now() > state.deadline || state.done) { realClearInterval(id); return; }
        guarded(fn, args);
      }, ms);
      timers.set(id, "interval");
      return id;
    };
    globalThis.clearTimeout = globalThis.clearInterval = (id) => {
      const kind = timers.get(id);
      if (!kind) return;
      timers.delete(id);
      state.pending--;
      if (kind === "interval") realClearInterval(id); else realClearTimeout(id);
      idleCheck();
    };
    globalThis.setImmediate = (fn, ...args) => globalThis.setTimeout(fn, 0, ...args);
    globalThis.clearImmediate = globalThis.clearTimeout;
    if (globalThis.scheduler) globalThis.scheduler = { wait: (ms) => new Promise((resolve) => globalThis.setTimeout(resolve, ms)) };

    for (const level of ["log", "info", "debug", "trace"]) console[level] = (...args) => { write("stdout", format(args) + "\n"); };
    for (const level of ["error", "warn"]) console[level] = (...args) => { write("stderr", format(args) + "\n"); };
    console.dir = (value) => { write("stdout", inspect(value) + "\n"); };
    console.table = (value) => { write("stdout", inspect(value) + "\n"); };

    const listeners = { data: [], end: [] };
    let stdinScheduled = false;
    const stdin = {
      isTTY: false,
      setEncoding() { return stdin; },
      resume() { return stdin; },
      pause() { return stdin; },
      on(event, fn) {
        (listeners[event] ??= []).push(fn);
        if (!stdinScheduled && (event === "data" || event === "end")) {
          stdinScheduled = true;
          globalThis.setTimeout(() => {
            if (request.stdin) for (const f of listeners.data) f(request.stdin);
            for (const f of listeners.end) f();
          }, 0);
        }
        return stdin;
      },
      once(event, fn) { return stdin.on(event, fn); },
      async *[Symbol.asyncIterator]() { if (request.stdin) yield request.stdin; },
    };
    globalThis.process = {
      argv: ["node", ...request.argv],
      argv0: "node",
      env: {},
      platform: "linux",
      version: "v24.0.0",
      versions: { node: "24.0.0", little: "isolate" },
      exitCode: undefined,
      exit(code) { throw new ExitSignal(Number(code ?? globalThis.process.exitCode ?? 0) || 0); },
      cwd: () => request.cwd,
      nextTick: (fn, ...args) => queueMicrotask(() => guarded(fn, args)),
      hrtime: Object.assign(() => { const t = performance.now(); return [Math.floor(t / 1000), Math.floor((t % 1000) * 1e6)]; }, { bigint: () => BigInt(Math.floor(performance.now() * 1e6)) }),
      memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
      on() { return globalThis.process; },
      stdout: { isTTY: false, write: (text) => write("stdout", text) },
      stderr: { isTTY: false, write: (text) => write("stderr", text) },
      stdin,
    };
    globalThis.require = (name) => {
      throw new Error("require(" + stringify(String(name)) + ") is not available: node in the Little sandbox runs ES modules with no Node built-ins, no packages and no filesystem");
    };
    globalThis.module = { exports: {} };
    globalThis.exports = globalThis.module.exports;
    globalThis.__filename = request.argv[0] || "[eval]";
    globalThis.__dirname = request.cwd;
    globalThis.addEventListener?.("unhandledrejection", (event) => { event.preventDefault?.(); uncaught(event.reason); });

    realSetTimeout(() => { state.timedOut = true; end(124); }, request.wallMs);
    // The script may never settle (an endless async loop stopped at the deadline): wait for the
    // end of the run, not for the script.
    (async () => {
      const main = (await import("./" + request.main)).default;
      const value = await main();
      if (request.print) write("stdout", inspect(value) + "\n");
      state.mainSettled = true;
      idleCheck();
    })().catch(uncaught);
    await finished;
    let stderr = out.stderr;
    if (state.timedOut) stderr += "node: stopped after " + request.wallMs + " ms (the sandbox's wall-time limit)\n";
    // The loop guard tripped: whatever the code did with its error, the run was stopped.
    const tripped = trippedReason();
    if (tripped) stderr += "node: stopped: " + tripped + "\n";
    if (out.truncated) stderr += "node: output truncated at " + request.maxOutputChars + " characters\n";
    return { stdout: out.stdout, stderr, exitCode: tripped ? 124 : state.exitCode ?? 0, timedOut: state.timedOut || Boolean(tripped) };
}

export default { fetch() { return new Response("little node isolate", { status: 404 }); } };
`;
