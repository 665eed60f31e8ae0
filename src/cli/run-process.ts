import { spawn } from "node:child_process";

/** What a finished child process left: its exit code and, when captured, its output. */
export type ProcessResult = { readonly code: number; readonly stdout: string; readonly stderr: string };

/**
 * Runs `wrangler` from the project's node_modules (`npx --no-install` finds it, never a download)
 * or another command from PATH, its output captured, passed straight to this terminal, or both (`tee`).
 *
 * @example
 * const { code, stdout } = await runProcess("wrangler", ["d1", "migrations", "apply", "DB", "--local"], "capture");
 */
export function runProcess(command: string, args: readonly string[], mode: "capture" | "inherit" | "tee"): Promise<ProcessResult> {
  const [file, argv] = command === "wrangler" ? ["npx", ["--no-install", "wrangler", ...args]] : [command, [...args]];
  return new Promise((done, fail) => {
    const child = spawn(file, argv, {
      stdio: mode === "inherit" ? "inherit" : ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
      if (mode === "tee") process.stdout.write(d);
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
      if (mode === "tee") process.stderr.write(d);
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}
