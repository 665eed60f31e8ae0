import { digestPrefix, digestText } from "../../json/digest.ts";
import type { MemoryStore } from "../../ports/memory-store.ts";
import type { RunCodeRequest, RunCodeResult, Sandbox, SandboxSession, SandboxSessionOptions } from "../../ports/sandbox.ts";
import { MountedMemory } from "../sandbox-isolate/mounted-memory.ts";
import type { OpenContainer } from "./container-client.ts";
import { runCodeInContainer } from "./container-code-run.ts";
import { ContainerSession } from "./container-session.ts";
import { HelperShell } from "./helper-shell.ts";

// One segment under /mnt/memory: workflow, org, or an attached store's id (a letter first, so never `.` or `..`).
const MOUNT_PATH = /^\/mnt\/memory\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

export type ContainerSandboxOptions = {
  /** Opens a sandbox by id: `openSandboxes(env.SANDBOX)` in the Worker, a fake in unit tests. */
  readonly open: OpenContainer;
  /** Where memory mounts load from and persist to; without it they start empty and are never saved. */
  readonly memory?: MemoryStore;
  /**
   * What the sandboxes belong to, e.g. the run id. Sessions and code runs of one scope map to the
   * same containers (a resumed session finds its container warm); without it each adapter
   * instance is its own scope and a resumed session restores its scratch into a fresh container.
   */
  readonly scope?: string;
  /** Ids of code runs and of the default scope (injected for deterministic tests). */
  readonly newId?: () => string;
};

/**
 * The Sandbox port on Cloudflare Containers (`@cloudflare/sandbox`), for deploys. Each bash
 * session gets its own container (id derived from scope and session id): sessions of one run may
 * run at the same time and all use `/mnt/scratch/own`, so they cannot share a filesystem. code.run
 * uses one container per scope, a fresh directory per call. Commands and code run as an
 * unprivileged user; the container has no internet (`SandboxContainer.enableInternet = false`).
 * What it enforces and what it cannot: docs/sandbox.md, "Container adapter".
 *
 * @example
 * const sandbox = new ContainerSandbox({ open: openSandboxes(env.SANDBOX), memory: new D1MemoryStore(env.DB) });
 * const session = await sandbox.openSession({ sessionId: "planner:c1", skills: [] });
 * await session.exec("ls -la"); // runs in /mnt/scratch/own inside the container
 */
export class ContainerSandbox implements Sandbox {
  private readonly options: ContainerSandboxOptions;
  private readonly scope: string;
  private readonly newId: () => string;
  private readonly shells = new Map<string, HelperShell>();

  constructor(options: ContainerSandboxOptions) {
    this.options = options;
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.scope = options.scope ?? this.newId();
  }

  async openSession(options: SandboxSessionOptions): Promise<SandboxSession> {
    const mounts: MountedMemory[] = [];
    for (const mount of options.memory ?? []) {
      if (!MOUNT_PATH.test(mount.path)) throw new Error(`memory mounts live under /mnt/memory/; refusing ${JSON.stringify(mount.path)}`);
      mounts.push(await MountedMemory.open(mount, this.options.memory));
    }
    return new ContainerSession(this.shell(sandboxId(this.scope, `session\n${options.sessionId}`)), options, mounts, this.options.memory);
  }

  runCode(request: RunCodeRequest): Promise<RunCodeResult> {
    return runCodeInContainer(this.shell(sandboxId(this.scope, "code")), request, callDirName(this.newId()));
  }

  private shell(id: string): HelperShell {
    let shell = this.shells.get(id);
    if (!shell) {
      shell = new HelperShell(this.options.open(id));
      this.shells.set(id, shell);
    }
    return shell;
  }
}

/**
 * A sandbox id: `lw-` and 40 hex digits of a digest of scope and name. Lowercase and 43
 * characters, as `getSandbox` wants (at most 63, no uppercase for preview URLs); a digest, so no
 * run or session id text reaches a hostname.
 */
export function sandboxId(scope: string, name: string): string {
  return `lw-${digestPrefix(digestText(`${scope}\n${name}`), 40)}`;
}

/** A code run's directory name: only safe characters of the id, never empty. */
function callDirName(id: string): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64);
  return clean === "" ? digestPrefix(digestText(id), 32) : clean;
}
