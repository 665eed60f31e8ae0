/** The result of one bash command. */
export type ExecResult = { readonly exitCode: number; readonly stdout: string; readonly stderr: string };

/** Files by path relative to the session's scratch directory. */
export type ScratchFiles = Readonly<Record<string, string>>;

/** What a harness session's bash sees besides its scratch directory. */
export type SandboxSessionOptions = {
  readonly sessionId: string;
  /** Skills, mounted at `.agents/skills/<name>/SKILL.md` under the scratch directory. */
  readonly skills: readonly { readonly name: string; readonly description: string; readonly body: string }[];
  /** Files to mount read-only for reference (e.g. `/mnt/workflow/snapshot.json`). */
  readonly references?: Readonly<Record<string, string>>;
  /** Scratch files to restore (a resumed session finds what its earlier calls wrote). */
  readonly scratch?: ScratchFiles;
};

/** One bash session: cwd `/mnt/scratch/own`, files persist across calls. */
export interface SandboxSession {
  exec(script: string, options?: { timeoutMs?: number }): Promise<ExecResult>;
  readFile(path: string): Promise<string | null>;
  writeFile(path: string, content: string): Promise<void>;
  /** The scratch directory's files, to persist with the call that wrote them. */
  snapshotScratch(): Promise<ScratchFiles>;
}

/**
 * The sandbox port: bash for planner and fixer sessions. Adapters: the isolate sandbox (just-bash
 * in the Worker; the default locally and in tests) and the container sandbox for deploys.
 */
export interface Sandbox {
  openSession(options: SandboxSessionOptions): Promise<SandboxSession>;
}

export const SCRATCH_DIR = "/mnt/scratch/own";
