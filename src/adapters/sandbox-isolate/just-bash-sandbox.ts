import { Bash, type Command, defineCommand, InMemoryFs } from "just-bash";
import { type MemoryStore, ORG_MEMORY_DIR, WORKFLOW_MEMORY_DIR } from "../../ports/memory-store.ts";
import type {
  ExecResult,
  HostCommand,
  MemoryPersistReport,
  PersistOptions,
  RunCodeResult,
  Sandbox,
  SandboxSession,
  SandboxSessionOptions,
  ScratchFiles,
} from "../../ports/sandbox.ts";
import { SCRATCH_DIR } from "../../ports/sandbox.ts";
import { skillFilePath, skillFileText } from "../../ports/skill-files.ts";
import { MountedMemory } from "./mounted-memory.ts";
import { nodeCommand, stdinText } from "./node-command.ts";
import { SessionFs } from "./session-fs.ts";

const MAX_OUTPUT_CHARS = 64 * 1024;
const MAX_SCRATCH_BYTES = 1024 * 1024;
/** Bytes a session's own filesystem may hold: it lives in the Worker's memory (just-bash's default is 1 GiB). */
const MAX_SESSION_FS_BYTES = 64 * 1024 * 1024;
// One segment under /mnt/memory: workflow, org, or an attached store's id (a letter first, so never `.` or `..`).
const MOUNT_PATH = /^\/mnt\/memory\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

export type JustBashSandboxOptions = {
  /** Runs the sessions' `node` command in isolates; without it `node` exits 127. */
  readonly loader?: WorkerLoader;
  /** Where memory mounts load from and persist to; without it they start empty and are never saved. */
  readonly memory?: MemoryStore;
  /** Wall-time limit of one `node` run (default 10 s). */
  readonly nodeWallMs?: number;
};

/**
 * Bash sessions on just-bash, inside the Worker: an in-memory filesystem, no network, no host
 * processes. Each session starts in `/mnt/scratch/own` with its skills, references and restored
 * scratch files; memory stores are mounted under `/mnt/memory`; `node` runs in an isolate.
 */
export class JustBashSandbox implements Sandbox {
  private readonly options: JustBashSandboxOptions;

  constructor(options: JustBashSandboxOptions = {}) {
    this.options = options;
  }

  /** just-bash alone cannot isolate code: code.run needs the isolate sandbox (a Worker Loader). */
  async runCode(): Promise<RunCodeResult> {
    return {
      ok: false,
      error: {
        code: "code_runner_unavailable",
        message: "this sandbox runs bash only; code.run needs the isolate sandbox (a Worker Loader binding)",
      },
      logs: [],
      durationMs: 0,
    };
  }

  async openSession(options: SandboxSessionOptions): Promise<SandboxSession> {
    const files: Record<string, string> = {};
    for (const skill of options.skills) {
      files[`${SCRATCH_DIR}/${skillFilePath(skill.name)}`] = skillFileText(skill);
    }
    for (const [path, content] of Object.entries(options.references ?? {})) files[path] = content;
    for (const [path, content] of Object.entries(options.scratch ?? {})) files[`${SCRATCH_DIR}/${path}`] = content;
    files[`${SCRATCH_DIR}/.keep`] = files[`${SCRATCH_DIR}/.keep`] ?? "";
    const root = new InMemoryFs(files, { maxTotalBytes: MAX_SESSION_FS_BYTES });
    root.mkdirSync("/mnt/memory", { recursive: true });
    // A caller that says nothing about memory gets the two directories, empty and never saved.
    if (!options.memory) for (const dir of [WORKFLOW_MEMORY_DIR, ORG_MEMORY_DIR]) root.mkdirSync(dir, { recursive: true });
    const fs = new SessionFs(root);
    const mounts: MountedMemory[] = [];
    for (const mount of options.memory ?? []) {
      if (!MOUNT_PATH.test(mount.path)) throw new Error(`memory mounts live under /mnt/memory/; refusing ${JSON.stringify(mount.path)}`);
      const mounted = await MountedMemory.open(mount, this.options.memory);
      fs.mount(mount.path, mounted.fs);
      mounts.push(mounted);
    }
    const bash = new Bash({
      fs,
      cwd: SCRATCH_DIR,
      env: { HOME: SCRATCH_DIR, PWD: SCRATCH_DIR },
      customCommands: [
        ...(options.commands ?? []).map(hostCommand),
        nodeCommand({
          ...(this.options.loader ? { loader: this.options.loader } : {}),
          ...(this.options.nodeWallMs ? { wallMs: this.options.nodeWallMs } : {}),
        }),
      ],
    });
    return new JustBashSession(bash, mounts, this.options.memory);
  }
}

class JustBashSession implements SandboxSession {
  private readonly bash: Bash;
  private readonly mounts: readonly MountedMemory[];
  private readonly store: MemoryStore | undefined;
  constructor(bash: Bash, mounts: readonly MountedMemory[], store: MemoryStore | undefined) {
    this.bash = bash;
    this.mounts = mounts;
    this.store = store;
  }

  async persistMemory(options: PersistOptions = {}): Promise<MemoryPersistReport> {
    const saved: string[] = [];
    const deleted: string[] = [];
    for (const mount of this.mounts) {
      const report = await mount.persist(this.store, options.redact);
      saved.push(...report.saved);
      deleted.push(...report.deleted);
    }
    return { saved, deleted };
  }

  async exec(script: string, options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    try {
      const result = await this.bash.exec(script, { cwd: SCRATCH_DIR, signal });
      return { exitCode: result.exitCode, stdout: clip(result.stdout), stderr: clip(result.stderr) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // 124 as `timeout` reports it; any other failure of the shell itself is a plain 1.
      return { exitCode: signal.aborted ? 124 : 1, stdout: "", stderr: clip(message.endsWith("\n") ? message : `${message}\n`) };
    }
  }

  async readFile(path: string): Promise<string | null> {
    try {
      return await this.bash.readFile(absolute(path));
    } catch {
      return null;
    }
  }

  async writeFile(path: string, content: string): Promise<void> {
    await this.bash.writeFile(absolute(path), content);
  }

  async snapshotScratch(): Promise<ScratchFiles> {
    const out: Record<string, string> = {};
    let total = 0;
    const prefix = `${SCRATCH_DIR}/`;
    for (const path of this.bash.fs.getAllPaths().sort()) {
      if (!path.startsWith(prefix) || path.startsWith(`${prefix}.agents/`) || path === `${prefix}.keep`) continue;
      const stat = await this.bash.fs.stat(path).catch(() => null);
      if (!stat?.isFile) continue;
      const content = await this.bash.fs.readFile(path);
      total += content.length;
      if (total > MAX_SCRATCH_BYTES) break;
      out[path.slice(prefix.length)] = content;
    }
    return out;
  }
}

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${SCRATCH_DIR}/${path}`;
}

function clip(text: string): string {
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n[output truncated at ${MAX_OUTPUT_CHARS} characters]` : text;
}

/** A harness host command as a just-bash command: files are read from the session's filesystem. */
function hostCommand(command: HostCommand): Command {
  return defineCommand(command.name, async (args, ctx) => {
    const result = await command.run(args, {
      stdin: stdinText(ctx.stdin),
      readFile: async (path) => {
        try {
          return await ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, path));
        } catch {
          return null;
        }
      },
    });
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, stdoutKind: "text" };
  });
}
