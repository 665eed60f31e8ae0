/**
 * A stand-in for a sandbox container on a Linux host without Docker (Node only, needs root):
 * every command runs in private mount and network namespaces (`unshare -m -n`: no network, as
 * the container has no internet) where a temp folder is mounted on `/mnt`, `/opt` and `/tmp`, and
 * `node` is the Node 24 running this process. The adapter's helper scripts, setpriv, timeout,
 * ulimit and Node's permission model all run for real; what it does not give is the container
 * itself (its image, its own kernel boundary, the SDK's server) — that needs Docker (CONTRIBUTING.md,
 * "Container sandbox").
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ContainerClient } from "../../../../src/adapters/sandbox-container/container-client.ts";

const MOUNTED = ["mnt", "opt", "tmp"] as const;

/** Why local containers cannot run here, or null when they can. */
export function localContainerUnavailable(): string | null {
  if (process.platform !== "linux") return "local containers need Linux (mount namespaces)";
  if (process.getuid?.() !== 0) return "local containers need root (unshare -m, setpriv)";
  try {
    execFileSync("unshare", ["-m", "-n", "--propagation", "private", "true"], { stdio: "ignore" });
    execFileSync("setpriv", ["--version"], { stdio: "ignore" });
    return null;
  } catch (error) {
    return `unshare -m or setpriv is not usable here: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export class LocalContainer implements ContainerClient {
  readonly root: string;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), "little-local-container-"));
    chmodSync(this.root, 0o755);
    for (const dir of MOUNTED) mkdirSync(join(this.root, dir), { recursive: true, mode: 0o755 });
    chmodSync(join(this.root, "tmp"), 0o1777);
  }

  exec(command: string, options: { cwd?: string; timeout?: number }): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const mounts = MOUNTED.map((dir) => `mount --bind "$LC_ROOT/${dir}" /${dir}`).join(" && ");
    const inner = `${mounts} && mount --bind "$LC_NODE" /usr/bin/node && cd "$LC_CWD" && eval "$LC_COMMAND"`;
    return new Promise((resolve, reject) => {
      const child = spawn("unshare", ["-m", "-n", "--propagation", "private", "bash", "-c", inner], {
        // A clean environment: the host's variables are none of the stand-in container's business.
        env: {
          PATH: "/usr/local/bin:/usr/bin:/bin",
          LC_ROOT: this.root,
          LC_NODE: process.execPath,
          LC_CWD: options.cwd ?? "/",
          LC_COMMAND: command,
        } as unknown as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
      });
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        stderr += d;
      });
      const timer = options.timeout
        ? setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`Request timed out after ${options.timeout}ms`));
          }, options.timeout)
        : undefined;
      child.on("error", reject);
      child.on("close", (code) => {
        if (timer) clearTimeout(timer);
        resolve({ exitCode: code ?? 1, stdout, stderr });
      });
    });
  }

  async writeFile(path: string, content: string): Promise<unknown> {
    const top = path.split("/")[1] ?? "";
    if (!(MOUNTED as readonly string[]).includes(top))
      throw new Error(`the local container only writes under /mnt, /opt and /tmp: ${path}`);
    const target = join(this.root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    return { success: true, path };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
