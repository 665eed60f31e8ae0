import { Bash } from "just-bash";
import type { ExecResult, RunCodeResult, Sandbox, SandboxSession, SandboxSessionOptions, ScratchFiles } from "../../ports/sandbox.ts";
import { SCRATCH_DIR } from "../../ports/sandbox.ts";

const MAX_OUTPUT_CHARS = 64 * 1024;
const MAX_SCRATCH_BYTES = 1024 * 1024;

/**
 * Bash sessions on just-bash, inside the Worker: an in-memory filesystem, no network, no host
 * processes. Each session starts in `/mnt/scratch/own` with its skills, references and restored
 * scratch files.
 */
export class JustBashSandbox implements Sandbox {
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
    const files: Record<string, string> = {
      "/mnt/memory/workflow/.keep": "",
      "/mnt/memory/org/.keep": "",
    };
    for (const skill of options.skills) {
      files[`${SCRATCH_DIR}/.agents/skills/${skill.name}/SKILL.md`] =
        `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${skill.body}`;
    }
    for (const [path, content] of Object.entries(options.references ?? {})) files[path] = content;
    for (const [path, content] of Object.entries(options.scratch ?? {})) files[`${SCRATCH_DIR}/${path}`] = content;
    files[`${SCRATCH_DIR}/.keep`] = files[`${SCRATCH_DIR}/.keep`] ?? "";
    const bash = new Bash({ files, cwd: SCRATCH_DIR, env: { HOME: SCRATCH_DIR, PWD: SCRATCH_DIR } });
    return new JustBashSession(bash);
  }
}

class JustBashSession implements SandboxSession {
  private readonly bash: Bash;
  constructor(bash: Bash) {
    this.bash = bash;
  }

  async exec(script: string, options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    try {
      const result = await this.bash.exec(script, { cwd: SCRATCH_DIR, signal });
      return { exitCode: result.exitCode, stdout: clip(result.stdout), stderr: clip(result.stderr) };
    } catch (error) {
      return { exitCode: 124, stdout: "", stderr: clip(error instanceof Error ? error.message : String(error)) };
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
