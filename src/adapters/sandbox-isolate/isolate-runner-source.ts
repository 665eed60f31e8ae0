import { LOOP_GUARD_MODULE } from "./loop-guard-source.ts";
import { WORKERS_SHIM_MODULE } from "./workers-module-shim.ts";

/** Largest JSON output code may return. */
export const MAX_CODE_OUTPUT_BYTES = 1024 * 1024;
/** Console lines kept per run, and characters per line. */
export const MAX_LOG_LINES = 200;
export const MAX_LOG_LINE = 2_000;
/** The module that captures intrinsics before the user's code runs. */
export const INTRINSICS_MODULE = "__little_intrinsics.js";

/**
 * Evaluated before the user's modules (it is imported first): keeps the JSON functions the runner
 * relies on, and wraps the timers so that none fires after the latest call's wall-time deadline —
 * an endless async loop stops in the isolate instead of spinning on after the host gave up. Under
 * `nodejs_compat` it also wraps `process.getBuiltinModule`, so `cloudflare:workers` reached that
 * way is the shim too (workers-module-shim.ts).
 */
export const INTRINSICS_SOURCE = `import * as safeWorkers from "./${WORKERS_SHIM_MODULE}";
export const stringify = JSON.stringify;
export const parse = JSON.parse;
let deadline = 0;
export function extendDeadline(ms) { deadline = Math.max(deadline, Date.now() + ms); }
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realSetInterval = globalThis.setInterval.bind(globalThis);
const realClearInterval = globalThis.clearInterval.bind(globalThis);
globalThis.setTimeout = (fn, ms, ...args) => (Date.now() > deadline ? 0 : realSetTimeout(fn, ms, ...args));
globalThis.setInterval = (fn, ms, ...args) => {
  if (Date.now() > deadline) return 0;
  const id = realSetInterval((...a) => { if (Date.now() > deadline) realClearInterval(id); else fn(...a); }, ms, ...args);
  return id;
};
try {
  const wait = globalThis.scheduler?.wait?.bind(globalThis.scheduler);
  if (wait) globalThis.scheduler.wait = (ms, options) => (Date.now() > deadline ? new Promise(() => {}) : wait(ms, options));
} catch {}
try {
  const builtin = globalThis.process?.getBuiltinModule?.bind(globalThis.process);
  if (builtin) {
    const wrapped = (id) => { const text = typeof id === "string" ? id : String(id); return text === "cloudflare:workers" ? safeWorkers : builtin(text); };
    Object.defineProperty(globalThis.process, "getBuiltinModule", { value: wrapped, writable: false, configurable: false });
  }
} catch {}
`;

/**
 * The main module of a code.run isolate: imports the loop guard first (loop-guard-source.ts), then
 * the entrypoint, captures the console, calls
 * `run({ input })` (`run({ input, env })` when the policy allows env: only the declared variables) and returns its JSON output (or a structured error) over RPC. The host checks
 * the answer again (see isolate-result.ts): user code shares this isolate and could patch globals.
 *
 * Calls run one at a time: the console capture and the loop guard are module-global, so a second
 * call inside the isolate would swap log lines with the first or re-arm its guard. The host never
 * sends an isolate two calls at once (warm-isolate-slots.ts); the queue here holds even if a call
 * reaches the entrypoint some other way.
 */
export function runnerSource(entrypoint: string): string {
  return `import { arm, release, trippedReason } from "./${LOOP_GUARD_MODULE}";
import { WorkerEntrypoint } from "cloudflare:workers";
import { extendDeadline, parse, stringify } from "./${INTRINSICS_MODULE}";
import * as user from ${JSON.stringify(`./${entrypoint}`)};

function show(value) {
  if (typeof value === "string") return value;
  try { return stringify(value); } catch { return String(value); }
}

let queue = Promise.resolve();

export class Runner extends WorkerEntrypoint {
  run(input, options) {
    const turn = queue.then(() => runGuarded(input, options));
    queue = turn.then(() => {}, () => {});
    return turn;
  }
}

async function runGuarded(input, options) {
    const wallMs = options?.wallMs ?? 30000;
    arm({ cpuMs: options?.cpuMs ?? 5000, wallMs });
    try {
      const result = await runOnce(input, wallMs, options?.env);
      // Whatever the code did with the guard's error (thrown, caught, turned into output), a trip
      // is the answer; the host maps it like Cloudflare's CPU limit.
      if (trippedReason()) return { ok: false, error: { code: "code_timeout", message: trippedReason() }, logs: result.logs };
      return result;
    } finally {
      release();
    }
}

async function runOnce(input, wallMs, env) {
    extendDeadline(wallMs);
    const logs = [];
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      console[level] = (...args) => {
        if (logs.length < ${MAX_LOG_LINES}) logs.push((level + ": " + args.map(show).join(" ")).slice(0, ${MAX_LOG_LINE}));
      };
    }
    if (typeof user.run !== "function") {
      return { ok: false, error: { code: "code_no_run_export", message: "the entrypoint exports no run({ input }) function" }, logs };
    }
    let output;
    try {
      output = await user.run(env === undefined ? { input } : { input, env: Object.freeze({ ...env }) });
    } catch (error) {
      const message = error && typeof error === "object" && "message" in error ? String(error.name || "Error") + ": " + String(error.message) : String(error);
      return { ok: false, error: { code: "code_threw", message }, logs };
    }
    let text;
    try {
      text = stringify(output === undefined ? null : output);
    } catch (error) {
      return { ok: false, error: { code: "code_output_not_json", message: "the output is not JSON: " + String(error) }, logs };
    }
    if (text.length > ${MAX_CODE_OUTPUT_BYTES}) {
      return { ok: false, error: { code: "code_output_too_large", message: "the output is " + text.length + " characters; the limit is ${MAX_CODE_OUTPUT_BYTES}" }, logs };
    }
    return { ok: true, output: parse(text), logs };
}

export default { fetch() { return new Response("little code.run isolate", { status: 404 }); } };
`;
}
