import { digestText } from "../json/digest.ts";
import type { Sandbox } from "./sandbox.ts";

/**
 * What to do when the container sandbox refuses to run commands because the runtime will not let
 * root give the sandbox user a network namespace of its own (docs/sandbox.md, "Network
 * namespaces"). Quoted by the helper's refusal, the smoke check and `little deploy`.
 */
export const CODE_RUNNER_REMEDY =
  "deploy with little deploy --sandbox isolate (Worker Loader isolates), or run the container where root may create network namespaces (CAP_SYS_ADMIN); docs/sandbox.md, 'Network namespaces'";

/** The answer of {@link checkSandbox} (and of `GET /v1/health/sandbox`). */
export type SandboxCheck =
  | { readonly ok: true; readonly bashMs: number; readonly codeRunMs: number }
  | { readonly ok: false; readonly code: "code_runner_unavailable"; readonly message: string; readonly remedy: string };

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
