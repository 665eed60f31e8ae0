import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { canonicalJson } from "../../json/canonical-json.ts";
import type { MemoryStore } from "../../ports/memory-store.ts";
import type { RunCodeRequest, RunCodeResult, Sandbox, SandboxSession, SandboxSessionOptions } from "../../ports/sandbox.ts";
import { checkCodeFiles } from "./check-code-files.ts";
import { ISOLATE_COMPATIBILITY_DATE, isolateCompatibilityFlags } from "./isolate-config.ts";
import { checkRunnerResult } from "./isolate-result.ts";
import { INTRINSICS_MODULE, INTRINSICS_SOURCE, runnerSource } from "./isolate-runner-source.ts";
import { JustBashSandbox } from "./just-bash-sandbox.ts";
import { instrumentModule } from "./loop-guard-instrument.ts";
import { LOOP_GUARD_ERROR, LOOP_GUARD_MODULE, LOOP_GUARD_SOURCE } from "./loop-guard-source.ts";
import { stripTypeScript } from "./strip-typescript.ts";
import { WarmIsolateSlots } from "./warm-isolate-slots.ts";
import { WORKERS_SHIM_MODULE, WORKERS_SHIM_SOURCE } from "./workers-module-shim.ts";

const DEFAULT_CPU_MS = 5_000;
const DEFAULT_WALL_MS = 30_000;
const RUNNER = "__little_runner.js";

/** What the isolate sandbox needs from the Worker: the loader, and a gate for allowed hosts. */
export type IsolateSandboxOptions = {
  readonly loader: WorkerLoader;
  /** An outbound Fetcher that only lets the given hosts through (`network: "allow"`). */
  readonly networkGate?: (hosts: readonly string[]) => Fetcher;
  /** Where bash sessions' memory mounts load from and persist to. */
  readonly memory?: MemoryStore;
};

type RunnerStub = {
  run(input: unknown, options: { wallMs: number; cpuMs: number; env?: Readonly<Record<string, string>> }): Promise<unknown>;
};

/** Module names code.run accepts: relative paths of plain segments, no `..`, no backslashes. */

/**
 * The embedded sandbox: bash on just-bash, and code.run in a Worker Loader isolate. Every file's
 * sha256 is verified before anything loads; TypeScript is stripped with sucrase; the policy maps
 * to the isolate's configuration — `network: "deny"` ⇒ `globalOutbound: null` (fetch throws),
 * no bindings ever (`env: "allow"` passes only the request's declared variables, as `run({ input, env })`), `fs: "deny"` ⇒ `nodejs_compat` switched off (no `node:fs`, no
 * modules of Node, no `process`). CPU time is limited by the isolate on Cloudflare and, locally
 * where workerd has no CPU limit, by loop guards instrumented into the code (loop-guard-source.ts);
 * wall time by the caller.
 * What the isolate answers is checked here (plain JSON within the size limit), never trusted.
 *
 * Warm isolates: code may keep anything in module scope or on `globalThis`, so an isolate is
 * reused only within one **scope** — one run of one tenant ({@link IsolateSandbox.forScope}, wired
 * per run object in src/wiring.ts) — and only by one call at a time (warm-isolate-slots.ts). A call
 * without a scope gets an isolate of its own. The isolate id is an HMAC (keyed by a random salt of
 * this instance) of the scope, files, entrypoint, policy and declared variables, so the same code
 * in the same run reuses a warm isolate and the id reveals nothing of the values. What crosses
 * nothing: another tenant, another run of the same tenant, a concurrent call of the same run.
 * Bash sessions run on {@link JustBashSandbox}, with this loader for their `node` command.
 */
export class IsolateSandbox implements Sandbox {
  private readonly bash: JustBashSandbox;
  private readonly options: IsolateSandboxOptions;
  /** Keys the warm-isolate ids: an id over secret values must not be a plain digest anyone can test guesses against. */
  private readonly idSalt = crypto.getRandomValues(new Uint8Array(32));
  private readonly slots = new WarmIsolateSlots();

  constructor(options: IsolateSandboxOptions) {
    this.options = options;
    this.bash = new JustBashSandbox({ loader: options.loader, ...(options.memory ? { memory: options.memory } : {}) });
  }

  openSession(options: SandboxSessionOptions): Promise<SandboxSession> {
    return this.bash.openSession(options);
  }

  /** Unscoped: the call shares its isolate with no other call (there is no run to scope it to). */
  runCode(request: RunCodeRequest): Promise<RunCodeResult> {
    return this.runScoped(request, `call:${crypto.randomUUID()}`);
  }

  /**
   * This sandbox for one scope (`<tenant>:<runId>`): its code.run calls reuse warm isolates of that
   * scope only. Cheap: a view over the shared loader, slots and salt.
   */
  forScope(scope: string): Sandbox {
    return { openSession: (options) => this.openSession(options), runCode: (request) => this.runScoped(request, `run:${scope}`) };
  }

  /** Warm isolates in use or retired, by scope and code (tests: nothing is held after calls end). */
  get heldIsolates(): number {
    return this.slots.size;
  }

  private async runScoped(request: RunCodeRequest, scope: string): Promise<RunCodeResult> {
    const started = Date.now();
    const fail = (
      code: Extract<RunCodeResult, { ok: false }>["error"]["code"],
      message: string,
      logs: readonly string[] = [],
    ): RunCodeResult => ({
      ok: false,
      error: { code, message },
      logs,
      durationMs: Date.now() - started,
    });
    const refused = checkCodeFiles(request, [RUNNER, INTRINSICS_MODULE, LOOP_GUARD_MODULE, WORKERS_SHIM_MODULE]);
    if (refused) return fail(refused.code, refused.message);
    const modules: Record<string, WorkerLoaderModule> = {
      [RUNNER]: { js: runnerSource(request.entrypoint) },
      [INTRINSICS_MODULE]: { js: INTRINSICS_SOURCE },
      [LOOP_GUARD_MODULE]: { js: LOOP_GUARD_SOURCE },
      [WORKERS_SHIM_MODULE]: { js: WORKERS_SHIM_SOURCE },
    };
    for (const [name, file] of Object.entries(request.files)) {
      const stripped = stripTypeScript(name, file.content);
      if (!stripped.ok) return fail("code_unsupported_syntax", stripped.message);
      // Loop guards keep a never-yielding loop from freezing local workerd (loop-guard-source.ts).
      // A file that does not parse would fail the isolate's start anyway: say why, before loading.
      const guarded = instrumentModule(name, stripped.code);
      if (!guarded.ok)
        return guarded.kind === "syntax"
          ? fail("code_load_failed", `the code could not be loaded: ${guarded.message}`)
          : fail("code_unsupported_syntax", guarded.message);
      modules[name] = { js: guarded.code };
    }
    const policy = request.policy;
    const outbound = policy.network === "allow" && this.options.networkGate ? this.options.networkGate(request.networkHosts ?? []) : null;
    // Declared variables go over RPC with each call, never into the isolate's configuration; but
    // code may keep what it was given in module state, so they join the key (within a run, a
    // rotated secret gets a fresh isolate).
    const env = policy.env === "allow" ? (request.env ?? {}) : undefined;
    const lease = this.slots.acquire(this.warmIsolateId(request, env, scope));
    const cpuMs = request.limits?.cpuMs ?? DEFAULT_CPU_MS;
    const wallMs = request.limits?.wallMs ?? DEFAULT_WALL_MS;
    let settled = false;
    const worker = this.options.loader.get(lease.id, () => ({
      compatibilityDate: ISOLATE_COMPATIBILITY_DATE,
      compatibilityFlags: isolateCompatibilityFlags(policy.fs === "allow"),
      mainModule: RUNNER,
      modules,
      env: {},
      globalOutbound: outbound,
      limits: { cpuMs, subRequests: policy.network === "allow" ? 50 : 0 },
    }));
    const runner = worker.getEntrypoint("Runner") as unknown as RunnerStub;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = await Promise.race([
        runner.run(request.input, { wallMs, cpuMs, ...(env ? { env } : {}) }),
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), wallMs);
        }),
      ]);
      if (result === "timeout") return fail("code_timeout", `the code ran longer than its ${wallMs} ms wall-time limit`);
      settled = true;
      return { ...checkRunnerResult(result), durationMs: Date.now() - started };
    } catch (error) {
      settled = true;
      const message = error instanceof Error ? error.message : String(error);
      // The guard tripped while a module's top level ran, i.e. while the isolate started.
      if (message.includes(LOOP_GUARD_ERROR)) return fail("code_timeout", `the code was stopped while loading: ${message}`);
      // On Cloudflare an isolate over its memory limit is killed and the call rejects (locally
      // workerd enforces no memory limit: see docs/sandbox.md).
      if (/memory/i.test(message)) return fail("code_load_failed", `the code was stopped at the isolate's memory limit: ${message}`);
      if (/cpu|exceeded|limit/i.test(message)) return fail("code_timeout", `the code was stopped: ${message}`);
      return fail("code_load_failed", `the code could not be loaded or crashed its isolate: ${message}`);
    } finally {
      if (timer) clearTimeout(timer);
      // A call the host gave up on may still be running in its isolate: retire it, never share it.
      if (settled) lease.release();
      else lease.retire();
    }
  }

  private warmIsolateId(request: RunCodeRequest, env: Readonly<Record<string, string>> | undefined, scope: string): string {
    const keyed = {
      scope,
      files: Object.fromEntries(Object.entries(request.files).map(([n, f]) => [n, f.sha256])),
      entrypoint: request.entrypoint,
      policy: request.policy,
      hosts: request.networkHosts ?? [],
      ...(env && Object.keys(env).length > 0 ? { env } : {}),
    };
    return `code-${bytesToHex(hmac(sha256, this.idSalt, utf8ToBytes(canonicalJson(keyed)))).slice(0, 32)}`;
  }
}
