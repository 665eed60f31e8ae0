import type { ContainerClient } from "./container-client.ts";
import { HELPER_DIR, HELPER_FS, HELPER_SH, STAGE_DIR } from "./container-layout.ts";
import { ContainerSandboxError } from "./container-sandbox-error.ts";
import { HELPER_FS_SOURCE, HELPER_SH_SOURCE } from "./helper-scripts.ts";
import { type Framed, parseFrame } from "./output-frame.ts";
import { shellCommand } from "./shell-quote.ts";

/** Slack the SDK's own timeout gets over the helper's, so the helper's `timeout` decides. */
const SDK_TIMEOUT_SLACK_MS = 15_000;
/** Timeout of the adapter's own housekeeping commands (layout, dumps, staged writes). */
export const HOUSEKEEPING_TIMEOUT_MS = 60_000;

export type HelperResult = { readonly exitCode: number; readonly stdout: string; readonly stderr: string };
/** A framed subcommand's answer: the command's frame, or the helper's own failure when it printed none. */
export type FramedResult = ({ readonly framed: true } & Framed) | ({ readonly framed: false } & HelperResult);

/**
 * One container as the adapter drives it: the helper scripts installed on first use, then every
 * command is `bash little.sh <subcommand> <quoted args>` ({@link shellCommand}). Text from the
 * host (scripts, files, specs) goes through a staged file or a quoted argument, never into the
 * command's source.
 */
export class HelperShell {
  private readonly client: ContainerClient;
  private installed: Promise<void> | null = null;
  private staged = 0;

  constructor(client: ContainerClient) {
    this.client = client;
  }

  /** Runs a helper subcommand; `timeoutMs` bounds the SDK call, the helper enforces its own. */
  async run(subcommand: string, args: readonly string[], timeoutMs = HOUSEKEEPING_TIMEOUT_MS): Promise<HelperResult> {
    await this.install();
    const r = await this.client.exec(shellCommand(["bash", HELPER_SH, subcommand, ...args]), {
      cwd: "/",
      timeout: timeoutMs + SDK_TIMEOUT_SLACK_MS,
    });
    if (r.exitCode === 127 && r.stderr.includes(HELPER_SH)) {
      // The helper is gone: the container restarted (it slept, or was replaced) with a fresh disk.
      this.installed = null;
      throw new ContainerRestarted();
    }
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  }

  /**
   * Runs a subcommand that frames its command's output (`exec`, `read`, `code`): the bytes come
   * back exactly ({@link parseFrame}); without a frame, the helper itself failed (no network
   * namespace, a missing file) and its raw answer says why.
   */
  async runFramed(subcommand: string, args: readonly string[], timeoutMs = HOUSEKEEPING_TIMEOUT_MS): Promise<FramedResult> {
    const r = await this.run(subcommand, args, timeoutMs);
    const frame = r.exitCode === 0 ? parseFrame(r.stdout) : null;
    return frame ? { framed: true, ...frame } : { framed: false, ...r };
  }

  /** Writes host text to a fresh root-only file and returns its path (the helper removes it). */
  async stage(content: string): Promise<string> {
    await this.install();
    const path = `${STAGE_DIR}/${Date.now().toString(36)}-${(this.staged++).toString(36)}-${crypto.randomUUID()}`;
    try {
      await this.client.writeFile(path, content);
    } catch {
      // Perhaps a restarted container without the stage directory: install again, write once more.
      this.installed = null;
      await this.install();
      await this.client.writeFile(path, content);
    }
    return path;
  }

  private install(): Promise<void> {
    this.installed ??= (async () => {
      // The helpers are readable by the sandbox user (dump runs as it); staged files are not.
      const layout = await this.client.exec(`mkdir -p ${STAGE_DIR} && chmod 755 ${HELPER_DIR} && chmod 700 ${STAGE_DIR}`, {
        cwd: "/",
        timeout: HOUSEKEEPING_TIMEOUT_MS,
      });
      if (layout.exitCode !== 0) throw new ContainerSandboxError(`could not prepare the container: ${layout.stderr.trim()}`);
      await this.client.writeFile(HELPER_SH, HELPER_SH_SOURCE);
      await this.client.writeFile(HELPER_FS, HELPER_FS_SOURCE);
    })().catch((error: unknown) => {
      this.installed = null;
      throw error;
    });
    return this.installed;
  }
}

/**
 * Thrown by {@link HelperShell.run} when the container lost the helper, i.e. restarted with a fresh
 * disk; the helper is installed again on the next call, and callers lay their files out again.
 */
export class ContainerRestarted extends Error {
  override readonly name = "ContainerRestarted";
  constructor() {
    super("the container restarted and lost its files");
  }
}
