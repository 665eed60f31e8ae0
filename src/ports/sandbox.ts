import type { MemoryMount } from "./memory-store.ts";

/** The result of one bash command. */
export type ExecResult = { readonly exitCode: number; readonly stdout: string; readonly stderr: string };

/** Files by path relative to the session's scratch directory. */
export type ScratchFiles = Readonly<Record<string, string>>;

/**
 * A command the harness gives a session's bash, run by the host (not in the sandbox): the
 * planner's `lwir-check`. `readFile` resolves paths against the scratch directory.
 */
export type HostCommand = {
  readonly name: string;
  run(args: readonly string[], io: { readonly stdin: string; readFile(path: string): Promise<string | null> }): Promise<ExecResult>;
};

/** What a harness session's bash sees besides its scratch directory. */
export type SandboxSessionOptions = {
  readonly sessionId: string;
  /** Skills, mounted at `.agents/skills/<name>/SKILL.md` under the scratch directory. */
  readonly skills: readonly { readonly name: string; readonly description: string; readonly body: string }[];
  /** Files to mount read-only for reference (e.g. `/mnt/workflow/snapshot.json`). */
  readonly references?: Readonly<Record<string, string>>;
  /** Scratch files to restore (a resumed session finds what its earlier calls wrote). */
  readonly scratch?: ScratchFiles;
  /**
   * Memory stores to mount (`/mnt/memory/workflow`, `/mnt/memory/org`): loaded when the session
   * opens; `ro` mounts refuse writes (EROFS), `rw` mounts are saved by {@link SandboxSession.persistMemory}.
   */
  readonly memory?: readonly MemoryMount[];
  /**
   * Host commands on the session's PATH. The isolate sandbox runs them anywhere in a script; the
   * container sandbox runs a script that is one such command on its own (its shell is remote).
   */
  readonly commands?: readonly HostCommand[];
};

/** How {@link SandboxSession.persistMemory} saves: `redact` rewrites each file's text before it is stored. */
export type PersistOptions = { readonly redact?: (text: string) => string };

/** What {@link SandboxSession.persistMemory} wrote: absolute paths under the rw mounts. */
export type MemoryPersistReport = { readonly saved: readonly string[]; readonly deleted: readonly string[] };

/** One bash session: cwd `/mnt/scratch/own`, files persist across calls. */
export interface SandboxSession {
  exec(script: string, options?: { timeoutMs?: number }): Promise<ExecResult>;
  readFile(path: string): Promise<string | null>;
  writeFile(path: string, content: string): Promise<void>;
  /** The scratch directory's files, to persist with the call that wrote them. */
  snapshotScratch(): Promise<ScratchFiles>;
  /**
   * Saves what changed under the rw memory mounts since the session opened (or last persisted) to
   * their stores; the harness calls it after every bash call. Throws when a store refuses the save.
   */
  persistMemory(options?: PersistOptions): Promise<MemoryPersistReport>;
}

/**
 * What code may do: each `deny` removes the capability entirely; `env: "allow"` passes only the
 * declared variables of {@link RunCodeRequest.env}.
 */
export type CodePolicy = { readonly network: "deny" | "allow"; readonly env: "deny" | "allow"; readonly fs: "deny" | "allow" };

/** A code.run request: files with their digests, the entrypoint exporting `run({ input })`. */
export type RunCodeRequest = {
  readonly files: Readonly<Record<string, { readonly content: string; readonly sha256: string }>>;
  readonly entrypoint: string;
  readonly input: unknown;
  readonly policy: CodePolicy;
  /** Hosts reachable when `policy.network` is `allow`. */
  readonly networkHosts?: readonly string[];
  /**
   * The variables code gets when `policy.env` is `allow`, as `run({ input, env })`: the secrets the
   * definition's `sandbox.env` names and the version permits, decrypted. Nothing else of the host's
   * environment ever reaches code; with `env: "deny"` code is called as `run({ input })`.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly limits?: { readonly cpuMs?: number; readonly wallMs?: number };
};

/** Why code did not produce an output; stable codes. */
export type RunCodeErrorCode =
  | "code_integrity"
  | "code_invalid_file_name"
  | "code_unsupported_syntax"
  | "code_load_failed"
  | "code_no_run_export"
  | "code_threw"
  | "code_timeout"
  | "code_output_too_large"
  | "code_output_not_json"
  | "code_runner_unavailable";

export type RunCodeResult =
  | { readonly ok: true; readonly output: unknown; readonly logs: readonly string[]; readonly durationMs: number }
  | {
      readonly ok: false;
      readonly error: { readonly code: RunCodeErrorCode; readonly message: string };
      readonly logs: readonly string[];
      readonly durationMs: number;
    };

/**
 * The sandbox port: bash for planner and fixer sessions, and code.run. Adapters: the isolate
 * sandbox (just-bash and Worker Loader isolates in the Worker; the default locally and in tests)
 * and the container sandbox for deploys.
 */
export interface Sandbox {
  openSession(options: SandboxSessionOptions): Promise<SandboxSession>;
  /** Runs code under its policy; never throws for the code's own failures. */
  runCode(request: RunCodeRequest): Promise<RunCodeResult>;
}

export const SCRATCH_DIR = "/mnt/scratch/own";
