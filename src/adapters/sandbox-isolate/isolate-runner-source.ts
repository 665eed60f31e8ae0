/** Largest JSON output code may return. */
export const MAX_CODE_OUTPUT_BYTES = 1024 * 1024;
/** Console lines kept per run, and characters per line. */
export const MAX_LOG_LINES = 200;
export const MAX_LOG_LINE = 2_000;

/**
 * The main module of a code.run isolate: imports the entrypoint, captures the console, calls
 * `run({ input })` and returns its JSON output (or a structured error) over RPC.
 */
export function runnerSource(entrypoint: string): string {
  return `import { WorkerEntrypoint } from "cloudflare:workers";
import * as user from ${JSON.stringify(`./${entrypoint}`)};

function show(value) {
  if (typeof value === "string") return value;
  try { return JSON.stringify(value); } catch { return String(value); }
}

export class Runner extends WorkerEntrypoint {
  async run(input) {
    const logs = [];
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      console[level] = (...args) => {
        if (logs.length < ${MAX_LOG_LINES}) logs.push((level + ": " + args.map(show).join(" ")).slice(0, ${MAX_LOG_LINE}));
      };
    }
    if (typeof user.run !== "function") {
      return { ok: false, error: { code: "code_no_run_export", message: "the entrypoint exports no run({ input }) function" }, logs };
    }
    let output;
    try {
      output = await user.run({ input });
    } catch (error) {
      const message = error && typeof error === "object" && "message" in error ? String(error.name || "Error") + ": " + String(error.message) : String(error);
      return { ok: false, error: { code: "code_threw", message }, logs };
    }
    let text;
    try {
      text = JSON.stringify(output === undefined ? null : output);
    } catch (error) {
      return { ok: false, error: { code: "code_output_not_json", message: "the output is not JSON: " + String(error) }, logs };
    }
    if (text.length > ${MAX_CODE_OUTPUT_BYTES}) {
      return { ok: false, error: { code: "code_output_too_large", message: "the output is " + text.length + " characters; the limit is ${MAX_CODE_OUTPUT_BYTES}" }, logs };
    }
    return { ok: true, output: JSON.parse(text), logs };
  }
}

export default { fetch() { return new Response("little code.run isolate", { status: 404 }); } };
`;
}
