import type { RunCodeErrorCode, RunCodeRequest, RunCodeResult } from "../../ports/sandbox.ts";
import { checkCodeFiles } from "../sandbox-isolate/check-code-files.ts";
import { checkRunnerResult } from "../sandbox-isolate/isolate-result.ts";
import { MAX_CODE_OUTPUT_BYTES, MAX_LOG_LINE, MAX_LOG_LINES } from "../sandbox-isolate/isolate-runner-source.ts";
import { stripTypeScript } from "../sandbox-isolate/strip-typescript.ts";
import { CODE_ENV, CODE_INPUT, CODE_RUNNER, codeRunnerSource } from "./code-runner-source.ts";
import { CODE_DIR } from "./container-layout.ts";
import { ContainerRestarted, type FramedResult, type HelperShell } from "./helper-shell.ts";
import { textToBase64 } from "./output-frame.ts";

const DEFAULT_CPU_MS = 5_000;
const DEFAULT_WALL_MS = 30_000;
/** V8 heap of one code.run (MiB): a memory bomb stops here instead of filling the container. */
export const CODE_HEAP_MB = 256;
/** Module names code.run accepts: the isolate sandbox's rule (relative, plain segments, no `..`). */
/** Exit codes: `timeout` after TERM, SIGXCPU at the soft CPU limit, SIGKILL (`timeout -k` or the hard CPU limit). */
const WALL_TIMEOUT_EXIT = 124;
const CPU_LIMIT_EXIT = 128 + 24;
const KILLED_EXIT = 128 + 9;
/** What `node` prints when its heap limit is reached. */
const HEAP_EXHAUSTED = /heap out of memory|Allocation failed/i;

/** Logged when a policy allows the network: per-host allow lists need the isolate sandbox's gate. */
export const NO_INTERNET = 'sandbox: network "allow" is not available in the container sandbox (no internet); requests fail';

type Failure = Extract<RunCodeResult, { ok: false }>;
/** A {@link RunCodeResult} before its duration is known. */
type Interpreted = RunCodeResult extends infer R ? (R extends unknown ? Omit<R, "durationMs"> : never) : never;

/**
 * code.run in a container: checks names and sha256 digests, strips TypeScript, stages the files,
 * the runner and the input (as a file) in a fresh directory, and runs `node` there through the
 * helper — as the sandbox user, with the wall limit (`timeout`), the CPU limit (`ulimit -t`), a
 * heap limit, always `env -i` (the declared variables of `env: "allow"` are staged as a file the
 * runner hands to `run({ input, env })`, never the container's environment) and Node's permission model for `fs` (read the code
 * only when denied; read anything and write a private temp directory when allowed; child
 * processes, workers and addons always denied). The container has no internet, whatever the policy.
 */
export async function runCodeInContainer(shell: HelperShell, request: RunCodeRequest, callId: string): Promise<RunCodeResult> {
  const started = Date.now();
  const fail = (code: RunCodeErrorCode, message: string, logs: readonly string[] = []): Failure => ({
    ok: false,
    error: { code, message },
    logs,
    durationMs: Date.now() - started,
  });
  const refused = checkCodeFiles(request, [CODE_RUNNER, CODE_INPUT, CODE_ENV]);
  if (refused) return fail(refused.code, refused.message);
  const files: Record<string, string> = { [CODE_RUNNER]: codeRunnerSource(request.entrypoint) };
  for (const [name, file] of Object.entries(request.files)) {
    const stripped = stripTypeScript(name, file.content);
    if (!stripped.ok) return fail("code_unsupported_syntax", stripped.message);
    files[name] = stripped.code;
  }
  let inputText: string;
  try {
    inputText = JSON.stringify(request.input === undefined ? null : request.input);
  } catch (error) {
    return fail("code_load_failed", `the input is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  files[CODE_INPUT] = inputText;
  if (request.policy.env === "allow") files[CODE_ENV] = JSON.stringify(request.env ?? {});
  const wallMs = request.limits?.wallMs ?? DEFAULT_WALL_MS;
  const cpuMs = request.limits?.cpuMs ?? DEFAULT_CPU_MS;
  const dir = `${CODE_DIR}/${callId}`;
  const attempt = async (): Promise<FramedResult | Failure> => {
    // One command: the helper lays the files out and runs them. A small spec travels inline as a
    // quoted argument (base64 and newlines only); a large one is staged first (one argument is at most 128 KiB).
    const text = codeSpec(files);
    const spec = text.length <= INLINE_SPEC_MAX ? `inline:${text}` : await shell.stage(text);
    return shell.runFramed(
      "code",
      [
        spec,
        dir,
        String(Math.max(1, Math.ceil(wallMs / 1000))),
        String(Math.max(1, Math.ceil(cpuMs / 1000))),
        String(CODE_HEAP_MB),
        request.policy.fs,
        request.policy.env,
        String(MAX_CODE_OUTPUT_BYTES * 2 + 1024),
      ],
      wallMs,
    );
  };
  let answer: FramedResult | Failure;
  try {
    // A container that restarted between calls lost the helper: it is installed again, once.
    answer = await attempt().catch((error: unknown) => {
      if (error instanceof ContainerRestarted) return attempt();
      throw error;
    });
    if ("ok" in answer) return answer;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/time(d)? ?out/i.test(message))
      return fail("code_timeout", `the container did not answer within the ${wallMs} ms wall-time limit: ${message}`);
    return fail("code_runner_unavailable", `the container sandbox is unavailable: ${message}`);
  }
  const durationMs = Date.now() - started;
  const result = interpretAnswer(answer, { wallMs, cpuMs, elapsedMs: durationMs });
  // Say why a request the code was allowed to make failed: the container has no internet at all.
  if (request.policy.network === "allow") return { ...result, logs: [NO_INTERNET, ...result.logs].slice(0, MAX_LOG_LINES), durationMs };
  return { ...result, durationMs };
}

/** Largest spec sent inline on the command line (Linux caps one argument at 128 KiB). */
export const INLINE_SPEC_MAX = 64 * 1024;

/** The files of a code run as the helper's `code` subcommand reads them: one `<base64 path> <base64 content>` line each. */
export function codeSpec(files: Readonly<Record<string, string>>): string {
  return Object.entries(files)
    .map(([path, content]) => `${textToBase64(path)} ${textToBase64(content)}\n`)
    .join("");
}

/** Maps what the helper answered: the frame's exit code, the runner's result (its stdout) and the code's own output (its stderr). */
export function interpretAnswer(answer: FramedResult, limits: { wallMs: number; cpuMs: number; elapsedMs: number }): Interpreted {
  const { wallMs, cpuMs } = limits;
  if (!answer.framed)
    return {
      ok: false,
      error: { code: "code_runner_unavailable", message: `the container's helper failed: ${answer.stderr.trim().slice(0, 2_000)}` },
      logs: [],
    };
  const { exit, stdout: resultText } = answer;
  const output = outputLines(answer.stderr);
  // A SIGKILL before the wall limit came from the hard CPU limit (the code ignored SIGXCPU).
  if (exit === WALL_TIMEOUT_EXIT || (exit === KILLED_EXIT && limits.elapsedMs >= wallMs))
    return {
      ok: false,
      error: { code: "code_timeout", message: `the code ran longer than its ${wallMs} ms wall-time limit` },
      logs: output,
    };
  if (exit === CPU_LIMIT_EXIT || exit === KILLED_EXIT)
    return { ok: false, error: { code: "code_timeout", message: `the code used more than its ${cpuMs} ms of CPU time` }, logs: output };
  if (resultText === "") {
    if (HEAP_EXHAUSTED.test(answer.stderr))
      return {
        ok: false,
        error: { code: "code_load_failed", message: `the code was stopped at its ${CODE_HEAP_MB} MiB heap limit` },
        logs: output,
      };
    return { ok: false, error: { code: "code_load_failed", message: `the code exited (status ${exit}) without a result` }, logs: output };
  }
  if (resultText.length > MAX_CODE_OUTPUT_BYTES * 2)
    return {
      ok: false,
      error: { code: "code_output_too_large", message: `the output is larger than ${MAX_CODE_OUTPUT_BYTES} characters` },
      logs: output,
    };
  let raw: unknown;
  try {
    raw = JSON.parse(resultText);
  } catch {
    return {
      ok: false,
      error: { code: "code_output_not_json", message: "the runner's result is not JSON (did the code write to fd 3?)" },
      logs: output,
    };
  }
  const loadError = loadFailure(raw);
  const checked = checkRunnerResult(raw);
  const logs = [...checked.logs, ...output].slice(0, MAX_LOG_LINES);
  if (loadError) return { ok: false, error: { code: "code_load_failed", message: loadError }, logs };
  return { ...checked, logs };
}

/** The runner reports an import failure as `code_load_failed`, a code the isolate runner never sends. */
function loadFailure(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null) return null;
  const error = (raw as { ok?: unknown; error?: { code?: unknown; message?: unknown } }).error;
  if ((raw as { ok?: unknown }).ok !== false || error?.code !== "code_load_failed") return null;
  return `the code could not be loaded: ${typeof error.message === "string" ? error.message.slice(0, 4_000) : "no message"}`;
}

/** What the code wrote to stdout/stderr itself, as log lines after the console's. */
function outputLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .slice(0, MAX_LOG_LINES)
    .map((line) => `output: ${line}`.slice(0, MAX_LOG_LINE));
}
