import {
  MAX_MEMORY_STORE_BYTES,
  type MemoryStore,
  ORG_MEMORY_DIR,
  validMemoryPath,
  WORKFLOW_MEMORY_DIR,
} from "../../ports/memory-store.ts";
import type {
  ExecResult,
  HostCommand,
  MemoryPersistReport,
  PersistOptions,
  SandboxSession,
  SandboxSessionOptions,
  ScratchFiles,
} from "../../ports/sandbox.ts";
import { SCRATCH_DIR } from "../../ports/sandbox.ts";
import { skillFilePath, skillFileText } from "../../ports/skill-files.ts";
import type { MountedMemory } from "../sandbox-isolate/mounted-memory.ts";
import { MAX_EXEC_OUTPUT, MAX_SCRATCH_BYTES } from "./container-layout.ts";
import { ContainerSandboxError } from "./container-sandbox-error.ts";
import { ContainerRestarted, type HelperShell } from "./helper-shell.ts";

const DEFAULT_EXEC_TIMEOUT_MS = 30_000;
/** Scratch entries that are not the session's own work (as the isolate sandbox skips them). */
const SCRATCH_SKIP = [".agents", ".keep"];

type Tree = { root: string; replace: boolean; mode: "rw" | "ro"; files: Record<string, string> };

/**
 * A bash session in a container. The container is laid out lazily, on the first call that needs
 * it: scratch (skills and restored files) and every memory mount are replaced from the session's
 * options and the stores, so a reused or restarted container holds exactly what the log and the
 * stores say. Memory changes are found by dumping the rw mounts and diffing them in
 * {@link MountedMemory} — the same bookkeeping the isolate sandbox uses.
 */
export class ContainerSession implements SandboxSession {
  private readonly shell: HelperShell;
  private readonly options: SandboxSessionOptions;
  private readonly mounts: readonly MountedMemory[];
  private readonly store: MemoryStore | undefined;
  private laidOut: Promise<void> | null = null;
  /** The latest scratch snapshot: what a restarted container is laid out with again. */
  private lastScratch: ScratchFiles | undefined;

  constructor(shell: HelperShell, options: SandboxSessionOptions, mounts: readonly MountedMemory[], store: MemoryStore | undefined) {
    this.shell = shell;
    this.options = options;
    this.mounts = mounts;
    this.store = store;
  }

  async exec(script: string, options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const host = this.hostInvocation(script);
    if (host) return host.command.run(host.args, { stdin: "", readFile: (path) => this.readFile(path) });
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    try {
      const r = await this.inContainer(() =>
        this.shell.runFramed("exec", [String(Math.max(1, Math.ceil(timeoutMs / 1000))), script], timeoutMs),
      );
      if (!r.framed) return { exitCode: r.exitCode, stdout: clip(r.stdout), stderr: clip(r.stderr) };
      return { exitCode: r.exit, stdout: clip(r.stdout), stderr: clip(r.stderr) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // 124 as `timeout` reports it, like the isolate sandbox; any other failure is a plain 1.
      const timedOut = /time(d)? ?out/i.test(message);
      return { exitCode: timedOut ? 124 : 1, stdout: "", stderr: `the container sandbox failed: ${message}\n` };
    }
  }

  /** A script that is one host command with plain arguments (its shell is remote, so only that form). */
  private hostInvocation(script: string): { command: HostCommand; args: string[] } | null {
    const words = script.trim().split(/\s+/);
    const command = (this.options.commands ?? []).find((c) => c.name === words[0]);
    if (!command || /[;&|<>`$(){}\n'"\\]/.test(script.trim())) return null;
    return { command, args: words.slice(1) };
  }

  async readFile(path: string): Promise<string | null> {
    const r = await this.inContainer(() => this.shell.runFramed("read", [absolute(path)]));
    return r.framed ? r.stdout : null;
  }

  async writeFile(path: string, content: string): Promise<void> {
    const r = await this.inContainer(async () => this.shell.run("write", [absolute(path), await this.shell.stage(content)]));
    if (r.exitCode !== 0)
      throw new ContainerSandboxError(`could not write ${path} in the container: ${r.stderr.trim() || `exit ${r.exitCode}`}`);
  }

  async snapshotScratch(): Promise<ScratchFiles> {
    // Nothing ran yet: the scratch is what the session was opened with.
    if (!this.laidOut) return { ...(this.lastScratch ?? this.options.scratch ?? {}) };
    const { files } = await this.dump(SCRATCH_DIR, MAX_SCRATCH_BYTES, SCRATCH_SKIP);
    this.lastScratch = files;
    return files;
  }

  async persistMemory(options: PersistOptions = {}): Promise<MemoryPersistReport> {
    const saved: string[] = [];
    const deleted: string[] = [];
    if (!this.laidOut) return { saved, deleted };
    for (const mount of this.mounts) {
      if (mount.mount.mode !== "rw" || !this.store) continue;
      const dumped = await this.dump(mount.mount.path, MAX_MEMORY_STORE_BYTES, []);
      if (dumped.truncated)
        throw new ContainerSandboxError(
          `${mount.mount.path} holds more than ${MAX_MEMORY_STORE_BYTES} bytes; a memory store keeps at most that`,
        );
      await mirror(mount, dumped.files);
      const report = await mount.persist(this.store, options.redact);
      saved.push(...report.saved);
      deleted.push(...report.deleted);
    }
    return { saved, deleted };
  }

  /**
   * Runs a helper call in the laid-out container. A container that restarted lost its disk: it is
   * laid out again from the latest scratch snapshot and the stores' last saved state (what the
   * session wrote after those is lost), and the call runs once more.
   */
  private async inContainer<R>(call: () => Promise<R>): Promise<R> {
    await this.layOut();
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ContainerRestarted)) throw error;
      this.laidOut = null;
      await this.layOut();
      return call();
    }
  }

  private layOut(): Promise<void> {
    if (!this.laidOut) {
      const laying = (async () => {
        const trees = await this.buildTrees();
        const load = async () => this.shell.run("load", [await this.shell.stage(JSON.stringify({ trees }))]);
        // The helper may be gone before the first call noticed: run() installs it again, once.
        const r = await load().catch((error: unknown) => {
          if (error instanceof ContainerRestarted) return load();
          throw error;
        });
        if (r.exitCode !== 0) throw new ContainerSandboxError(`could not lay out the session in the container: ${r.stderr.trim()}`);
      })();
      this.laidOut = laying;
      // A failed layout is tried again by the next call, not remembered.
      laying.catch(() => {
        if (this.laidOut === laying) this.laidOut = null;
      });
    }
    return this.laidOut;
  }

  private async buildTrees(): Promise<Tree[]> {
    const scratch: Record<string, string> = {};
    for (const skill of this.options.skills) scratch[skillFilePath(skill.name)] = skillFileText(skill);
    for (const [path, content] of Object.entries(this.lastScratch ?? this.options.scratch ?? {})) scratch[path] = content;
    const trees: Tree[] = [{ root: SCRATCH_DIR, replace: true, mode: "rw", files: scratch }];
    if (!this.options.memory) {
      // A caller that says nothing about memory gets the two directories, empty and never saved.
      for (const root of [WORKFLOW_MEMORY_DIR, ORG_MEMORY_DIR]) trees.push({ root, replace: true, mode: "rw", files: {} });
    }
    for (const mount of this.mounts)
      trees.push({ root: mount.mount.path, replace: true, mode: mount.mount.mode, files: await filesOf(mount) });
    for (const [path, content] of Object.entries(this.options.references ?? {})) {
      const cut = path.lastIndexOf("/");
      trees.push({ root: path.slice(0, cut), replace: false, mode: "ro", files: { [path.slice(cut + 1)]: content } });
    }
    return trees;
  }

  private async dump(
    root: string,
    maxBytes: number,
    skip: readonly string[],
  ): Promise<{ files: Record<string, string>; truncated: boolean }> {
    const r = await this.inContainer(() => this.shell.run("dump", [root, String(maxBytes), ...skip]));
    try {
      if (r.exitCode !== 0) throw new Error(r.stderr.trim() || `exit ${r.exitCode}`);
      const parsed = JSON.parse(r.stdout) as { files?: unknown; truncated?: unknown };
      const files: Record<string, string> = {};
      if (typeof parsed.files === "object" && parsed.files !== null)
        for (const [path, content] of Object.entries(parsed.files)) if (typeof content === "string") files[path] = content;
      return { files, truncated: parsed.truncated === true };
    } catch (error) {
      throw new ContainerSandboxError(
        `could not read ${root} back from the container: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The files a mount loaded from its store (its baseline). */
async function filesOf(mount: MountedMemory): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of mount.fs.getAllPaths()) {
    const stat = await mount.fs.lstat(path).catch(() => null);
    if (stat?.isFile) out[path.replace(/^\/+/, "")] = await mount.fs.readFile(path);
  }
  return out;
}

/** Makes a mount's in-memory copy equal to what the container holds, so `persist` diffs it. */
async function mirror(mount: MountedMemory, files: Record<string, string>): Promise<void> {
  for (const path of mount.fs.getAllPaths()) {
    const relative = path.replace(/^\/+/, "");
    if (relative === "" || Object.hasOwn(files, relative)) continue;
    const stat = await mount.fs.lstat(path).catch(() => null);
    if (stat?.isFile) await mount.fs.rm(path);
  }
  for (const [path, content] of Object.entries(files)) if (validMemoryPath(path)) await mount.fs.writeFile(`/${path}`, content);
}

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${SCRATCH_DIR}/${path}`;
}

function clip(text: string): string {
  return text.length > MAX_EXEC_OUTPUT ? `${text.slice(0, MAX_EXEC_OUTPUT)}\n[output truncated at ${MAX_EXEC_OUTPUT} characters]` : text;
}
