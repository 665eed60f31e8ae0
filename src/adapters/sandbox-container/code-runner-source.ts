import { MAX_CODE_OUTPUT_BYTES, MAX_LOG_LINE, MAX_LOG_LINES } from "../sandbox-isolate/isolate-runner-source.ts";

/** The runner's file name next to the code; code.run refuses a file of that name. */
export const CODE_RUNNER = "__little_runner.mjs";
/** The input, as JSON, next to the code: read from a file, never put on a command line. */
export const CODE_INPUT = "__little_input.json";
/** The declared variables (`policy.env: "allow"`), as JSON: staged only then, and never in the process environment. */
export const CODE_ENV = "__little_env.json";

/**
 * The main module of a code.run in a container (Node): reads the input file, imports the
 * entrypoint, captures the console, calls `run({ input })` (`run({ input, env })` when the
 * declared variables were staged) and writes `{ ok, output | error,
 * logs }` to fd 3, which the helper opened for it. It shares its process with the user's code,
 * so the host checks what it wrote again (`checkRunnerResult`), as for the isolate runner.
 */
export function codeRunnerSource(entrypoint: string): string {
  return `import { existsSync, readFileSync, writeSync } from "node:fs";
const stringify = JSON.stringify;
const logs = [];
const finish = (result) => { writeSync(3, stringify({ ...result, logs })); process.exit(0); };
const show = (value) => { if (typeof value === "string") return value; try { return stringify(value); } catch { return String(value); } };
for (const level of ["log", "info", "warn", "error", "debug"]) {
  console[level] = (...args) => { if (logs.length < ${MAX_LOG_LINES}) logs.push((level + ": " + args.map(show).join(" ")).slice(0, ${MAX_LOG_LINE})); };
}
const input = JSON.parse(readFileSync(new URL(${JSON.stringify(`./${CODE_INPUT}`)}, import.meta.url), "utf8"));
const envFile = new URL(${JSON.stringify(`./${CODE_ENV}`)}, import.meta.url);
const env = existsSync(envFile) ? Object.freeze(JSON.parse(readFileSync(envFile, "utf8"))) : undefined;
let user;
try {
  user = await import(${JSON.stringify(`./${entrypoint}`)});
} catch (error) {
  finish({ ok: false, error: { code: "code_load_failed", message: String(error && error.stack || error) } });
}
if (typeof user.run !== "function") finish({ ok: false, error: { code: "code_no_run_export", message: "the entrypoint exports no run({ input }) function" } });
let output;
try {
  output = await user.run(env === undefined ? { input } : { input, env });
} catch (error) {
  const message = error && typeof error === "object" && "message" in error ? String(error.name || "Error") + ": " + String(error.message) : String(error);
  finish({ ok: false, error: { code: "code_threw", message } });
}
let text;
try {
  text = stringify(output === undefined ? null : output);
} catch (error) {
  finish({ ok: false, error: { code: "code_output_not_json", message: "the output is not JSON: " + String(error) } });
}
if (text.length > ${MAX_CODE_OUTPUT_BYTES}) finish({ ok: false, error: { code: "code_output_too_large", message: "the output is " + text.length + " characters; the limit is ${MAX_CODE_OUTPUT_BYTES}" } });
finish({ ok: true, output: JSON.parse(text) });
`;
}
