import { type Command, defineCommand, type ExecResult, type IFileSystem } from "just-bash";
import { ISOLATE_COMPATIBILITY_DATE, isolateCompatibilityFlags } from "./isolate-config.ts";
import { instrumentModule } from "./loop-guard-instrument.ts";
import { LOOP_GUARD_MODULE, LOOP_GUARD_SOURCE } from "./loop-guard-source.ts";
import { wrapMainScript } from "./node-main-wrapper.ts";
import { NODE_RUNNER_MODULE, NODE_RUNNER_SOURCE, type NodeRunRequest, type NodeRunResponse } from "./node-runner-source.ts";
import { stripTypeScript } from "./strip-typescript.ts";
import { WORKERS_SHIM_MODULE, WORKERS_SHIM_SOURCE } from "./workers-module-shim.ts";

export const DEFAULT_NODE_WALL_MS = 10_000;
/** How long `node` may run without yielding (the loop guard; never more than the wall time). */
export const DEFAULT_NODE_CPU_MS = 5_000;
export const DEFAULT_NODE_OUTPUT_CHARS = 256 * 1024;
/** Beyond the isolate's own deadline, how long the host waits before giving up on it. */
const HOST_GRACE_MS = 2_000;
const MAX_MODULES = 64;
const MAX_SOURCE_CHARS = 2 * 1024 * 1024;
const MODULE_FILE = /\.(m?js|m?ts)$/;

export type NodeCommandOptions = {
  /** Without a loader, `node` explains that it is unavailable and exits 127. */
  readonly loader?: WorkerLoader;
  readonly wallMs?: number;
  readonly cpuMs?: number;
  readonly maxOutputChars?: number;
};

type Invocation =
  | { kind: "info"; text: string }
  | { kind: "error"; text: string; exitCode: number }
  | { kind: "eval"; code: string; print: boolean; args: string[] }
  | { kind: "file"; path: string; args: string[] }
  | { kind: "stdin"; args: string[] };

const IGNORED_OPTION = /^--(input-type=.*|experimental-.*|no-warnings|no-deprecation|enable-source-maps|disable-warning=.*)$/;

/** Parses `node [options] [script | -e code | -p expr | -] [args]` the way Node reads it. */
export function parseNodeArgs(args: readonly string[]): Invocation {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-v" || arg === "--version") return { kind: "info", text: "v24.0.0\n" };
    if (arg === "-h" || arg === "--help")
      return {
        kind: "info",
        text: "Usage: node [-e code | -p expr | script.js | -] [arguments]\nRuns JavaScript (or TypeScript) in a sandboxed isolate: no network, no env, no filesystem, no Node built-ins.\n",
      };
    if (arg === "-e" || arg === "--eval" || arg === "-p" || arg === "--print") {
      const code = args[i + 1];
      if (code === undefined) return { kind: "error", text: `node: ${arg} requires an argument\n`, exitCode: 9 };
      return { kind: "eval", code, print: arg === "-p" || arg === "--print", args: args.slice(i + 2) };
    }
    if (arg === "-") return { kind: "stdin", args: args.slice(i + 1) };
    if (arg === "--") {
      const script = args[i + 1];
      return script === undefined ? { kind: "stdin", args: [] } : { kind: "file", path: script, args: args.slice(i + 2) };
    }
    if (IGNORED_OPTION.test(arg)) continue;
    if (arg.startsWith("-")) return { kind: "error", text: `node: bad option: ${arg}\n`, exitCode: 9 };
    return { kind: "file", path: arg, args: args.slice(i + 1) };
  }
  return { kind: "stdin", args: [] };
}

/**
 * The `node` command of bash sessions: runs the given JavaScript or TypeScript in a fresh Worker
 * Loader isolate with no network (`globalOutbound: null`), an empty env and no Node built-ins.
 * stdout is what the code printed with `console.log` / `process.stdout.write`, stderr its
 * `console.error` and an uncaught error; the exit code is 0, 1 (uncaught error), the code given to
 * `process.exit`, or 124 at the wall-time limit. A script file runs with its directory's other
 * `.js`/`.mjs`/`.ts`/`.mts` files available to relative imports.
 */
export function nodeCommand(options: NodeCommandOptions): Command {
  const wallMs = options.wallMs ?? DEFAULT_NODE_WALL_MS;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_NODE_OUTPUT_CHARS;
  const cpuMs = Math.min(options.cpuMs ?? DEFAULT_NODE_CPU_MS, wallMs);
  return defineCommand("node", async (args, ctx): Promise<ExecResult> => {
    const invocation = parseNodeArgs(args);
    if (invocation.kind === "info") return text(invocation.text, "", 0);
    if (invocation.kind === "error") return text("", invocation.text, invocation.exitCode);
    if (!options.loader)
      return text("", "node: not available in this sandbox: running JavaScript needs the isolate sandbox (a Worker Loader binding)\n", 127);
    const stdin = stdinText(ctx.stdin);
    const program = await programOf(invocation, stdin, ctx.fs, ctx.cwd);
    if ("error" in program) return text("", program.error, 1);
    const request: NodeRunRequest = {
      main: program.main,
      print: invocation.kind === "eval" && invocation.print,
      argv: program.argv,
      stdin: invocation.kind === "stdin" ? "" : stdin,
      cwd: ctx.cwd,
      wallMs,
      cpuMs,
      maxOutputChars,
    };
    return runInIsolate(options.loader, program.modules, request, ctx.signal);
  });
}

type Program = { main: string; modules: Record<string, WorkerLoaderModule>; argv: string[] } | { error: string };

async function programOf(invocation: Invocation, stdin: string, fs: IFileSystem, cwd: string): Promise<Program> {
  if (invocation.kind === "eval") {
    const guarded = instrumentModule("[eval]", wrapMainScript(invocation.code, invocation.print));
    if (!guarded.ok) return { error: `node: ${guarded.message}\n` };
    return { main: "eval.js", modules: { "eval.js": { js: guarded.code } }, argv: invocation.args };
  }
  if (invocation.kind === "stdin") {
    if (stdin.trim() === "") return { error: "node: no script given (give a file, -e code, or pipe a script in; there is no REPL)\n" };
    const guarded = instrumentModule("[stdin]", wrapMainScript(stdin, false));
    if (!guarded.ok) return { error: `node: ${guarded.message}\n` };
    return { main: "stdin.js", modules: { "stdin.js": { js: guarded.code } }, argv: ["[stdin]", ...invocation.args] };
  }
  if (invocation.kind !== "file") return { error: "node: nothing to run\n" };
  const path = fs.resolvePath(cwd, invocation.path);
  const stat = await fs.stat(path).catch(() => null);
  if (!stat?.isFile) return { error: `node: Error: Cannot find module '${path}'\n` };
  const dir = path.slice(0, path.lastIndexOf("/") + 1);
  const names = fs
    .getAllPaths()
    .filter((p) => p !== path && p.startsWith(dir) && MODULE_FILE.test(p) && !p.includes("/node_modules/") && !p.includes("/."))
    .sort()
    .slice(0, MAX_MODULES - 1);
  const modules: Record<string, WorkerLoaderModule> = {};
  let total = 0;
  for (const file of [path, ...names]) {
    const content = await fs.readFile(file).catch(() => null);
    if (content === null) continue;
    total += content.length;
    if (total > MAX_SOURCE_CHARS) {
      if (file === path) return { error: `node: ${path} is larger than ${MAX_SOURCE_CHARS} characters\n` };
      break;
    }
    const name = file.slice(dir.length);
    if (name === NODE_RUNNER_MODULE || name === LOOP_GUARD_MODULE || name === WORKERS_SHIM_MODULE)
      return { error: `node: ${name} is a reserved file name\n` };
    const stripped = stripTypeScript(name.replace(/\.mts$/, ".ts"), content);
    // Loop guards keep a never-yielding script from freezing local workerd (loop-guard-source.ts).
    const guarded = stripped.ok ? instrumentModule(name, file === path ? wrapMainScript(stripped.code, false) : stripped.code) : stripped;
    if (!guarded.ok) {
      if (file === path) return { error: `node: ${guarded.message}\n` };
      // A sibling that does not parse fails only the script that imports it, with the reason.
      if ("kind" in guarded && guarded.kind === "syntax")
        modules[name] = { js: `throw new SyntaxError(${JSON.stringify(guarded.message)});` };
      continue;
    }
    modules[name] = { js: guarded.code };
  }
  return { main: path.slice(dir.length), modules, argv: [path, ...invocation.args] };
}

async function runInIsolate(
  loader: WorkerLoader,
  userModules: Record<string, WorkerLoaderModule>,
  request: NodeRunRequest,
  signal: AbortSignal | undefined,
): Promise<ExecResult> {
  const worker = loader.load({
    compatibilityDate: ISOLATE_COMPATIBILITY_DATE,
    compatibilityFlags: isolateCompatibilityFlags(false),
    mainModule: NODE_RUNNER_MODULE,
    modules: {
      ...userModules,
      [NODE_RUNNER_MODULE]: { js: NODE_RUNNER_SOURCE },
      [LOOP_GUARD_MODULE]: { js: LOOP_GUARD_SOURCE },
      [WORKERS_SHIM_MODULE]: { js: WORKERS_SHIM_SOURCE },
    },
    env: {},
    globalOutbound: null,
    limits: { cpuMs: request.wallMs, subRequests: 0 },
  });
  const runner = worker.getEntrypoint("NodeRunner") as unknown as { run(r: NodeRunRequest): Promise<NodeRunResponse> };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const outcome = await Promise.race([
      runner.run(request),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), request.wallMs + HOST_GRACE_MS);
      }),
      new Promise<"aborted">((resolve) => {
        if (!signal) return;
        onAbort = () => resolve("aborted");
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    if (outcome === "timeout") return text("", `node: stopped after ${request.wallMs} ms (the sandbox's wall-time limit)\n`, 124);
    if (outcome === "aborted") return text("", "node: stopped: the bash command was cancelled or timed out\n", 124);
    return checked(outcome, request.maxOutputChars);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return text("", `node: the isolate failed: ${message}\n`, 1);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/** The isolate's answer, never trusted: only strings and an exit code in 0–255 get through. */
function checked(response: unknown, maxChars: number): ExecResult {
  const r = (response ?? {}) as Partial<Record<keyof NodeRunResponse, unknown>>;
  const clip = (v: unknown) => (typeof v === "string" ? v.slice(0, maxChars + 200) : "");
  const code = typeof r.exitCode === "number" && Number.isInteger(r.exitCode) && r.exitCode >= 0 && r.exitCode <= 255 ? r.exitCode : 1;
  return text(clip(r.stdout), clip(r.stderr), code);
}

function text(stdout: string, stderr: string, exitCode: number): ExecResult {
  return { stdout, stderr, exitCode, stdoutKind: "text" };
}

/** just-bash hands stdin over as bytes in a latin1 string; decode them as UTF-8. */
export function stdinText(stdin: unknown): string {
  if (typeof stdin === "string") {
    if (stdin === "") return "";
    if ([...stdin].some((c) => c.charCodeAt(0) > 0xff)) return stdin;
    return new TextDecoder().decode(Uint8Array.from(stdin, (c) => c.charCodeAt(0)));
  }
  if (stdin instanceof Uint8Array) return new TextDecoder().decode(stdin);
  return "";
}
