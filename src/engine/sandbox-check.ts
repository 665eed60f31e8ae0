import { digestText } from "../json/digest.ts";
import type { Sandbox } from "../ports/sandbox.ts";
import { CODE_RUNNER_REMEDY, type SandboxCheck } from "../ports/sandbox-check.ts";

/** The scope the check's sessions and code runs use: one fixed set of sandboxes, whoever calls. */
export const SANDBOX_CHECK_SCOPE = "health:sandbox";

/**
 * A smoke check of a Sandbox: one bash command and one code.run, each with a known answer. A
 * deploy runs it through the deployed Worker, so a runtime where the sandbox cannot run anything
 * (the container sandbox without network namespaces) is reported at deploy time, not by the first
 * run that fails.
 *
 * @example
 * await checkSandbox(sandbox) // { ok: true, bashMs: 41, codeRunMs: 63 }
 */
export async function checkSandbox(sandbox: Sandbox, now: () => number = Date.now): Promise<SandboxCheck> {
  const unavailable = (what: string, detail: string): SandboxCheck => ({
    ok: false,
    code: "code_runner_unavailable",
    message: `${what}: ${detail.trim().slice(0, 2_000)}`,
    remedy: CODE_RUNNER_REMEDY,
  });
  const started = now();
  try {
    const session = await sandbox.openSession({ sessionId: "check", skills: [] });
    const bash = await session.exec("printf 'ok\\n'", { timeoutMs: 30_000 });
    if (bash.exitCode !== 0 || bash.stdout !== "ok\n")
      return unavailable(`bash answered exit ${bash.exitCode}`, bash.stderr || JSON.stringify(bash.stdout));
  } catch (error) {
    return unavailable("bash failed", error instanceof Error ? error.message : String(error));
  }
  const bashMs = now() - started;
  const source = "export function run({ input }) { return input + 1; }";
  const code = await sandbox.runCode({
    files: { "check.js": { content: source, sha256: digestText(source) } },
    entrypoint: "check.js",
    input: 1,
    policy: { network: "deny", env: "deny", fs: "deny" },
    limits: { wallMs: 30_000, cpuMs: 5_000 },
  });
  if (!code.ok) return unavailable(`code.run failed (${code.error.code})`, code.error.message);
  if (code.output !== 2) return unavailable("code.run answered", JSON.stringify(code.output));
  return { ok: true, bashMs, codeRunMs: now() - started - bashMs };
}
