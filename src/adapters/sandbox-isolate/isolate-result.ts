import type { RunCodeErrorCode, RunCodeResult } from "../../ports/sandbox.ts";
import { MAX_CODE_OUTPUT_BYTES, MAX_LOG_LINE, MAX_LOG_LINES } from "./isolate-runner-source.ts";

const MAX_ERROR_MESSAGE = 4_000;
// `code_timeout`: the loop guard's trip (loop-guard-source.ts). Code that fakes it only fails itself.
const ISOLATE_CODES: readonly RunCodeErrorCode[] = [
  "code_no_run_export",
  "code_threw",
  "code_output_not_json",
  "code_output_too_large",
  "code_timeout",
];

/** A {@link RunCodeResult} before its duration is known. */
type Checked = RunCodeResult extends infer R ? (R extends unknown ? Omit<R, "durationMs"> : never) : never;

/**
 * Checks what a code.run isolate answered before anything in the host uses it. The runner shares
 * its isolate with the user's code, which can patch `JSON`, `Array.prototype` and friends, so the
 * answer may not be what the runner meant: only plain JSON within the size limit passes as output
 * (re-parsed here, so no getters, stubs or odd prototypes survive), logs are clipped strings, and
 * error codes are the ones an isolate may report.
 */
export function checkRunnerResult(raw: unknown): Checked {
  const r = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const logs = Array.isArray(r.logs)
    ? r.logs
        .filter((l): l is string => typeof l === "string")
        .slice(0, MAX_LOG_LINES)
        .map((l) => l.slice(0, MAX_LOG_LINE))
    : [];
  if (r.ok === true) {
    const text = plainJsonText(r.output);
    if (text === "not_plain")
      return {
        ok: false,
        error: {
          code: "code_output_not_json",
          message: "the output is not plain JSON (null, booleans, finite numbers, strings, arrays and plain objects)",
        },
        logs,
      };
    if (text === "too_large" || text.length > MAX_CODE_OUTPUT_BYTES) {
      const size = text === "too_large" ? `more than ${MAX_CODE_OUTPUT_BYTES * 2}` : String(text.length);
      return {
        ok: false,
        error: { code: "code_output_too_large", message: `the output is ${size} characters; the limit is ${MAX_CODE_OUTPUT_BYTES}` },
        logs,
      };
    }
    return { ok: true, output: JSON.parse(text), logs };
  }
  const error = (typeof r.error === "object" && r.error !== null ? r.error : {}) as Record<string, unknown>;
  const code = ISOLATE_CODES.includes(error.code as RunCodeErrorCode) ? (error.code as RunCodeErrorCode) : "code_threw";
  const message = typeof error.message === "string" ? error.message.slice(0, MAX_ERROR_MESSAGE) : "the code failed without a message";
  return { ok: false, error: { code, message }, logs };
}

/** JSON text of a value that is plain JSON data; stops walking early far past the size limit. */
function plainJsonText(value: unknown): string | "not_plain" | "too_large" {
  let budget = MAX_CODE_OUTPUT_BYTES * 2;
  const plain = (v: unknown, depth: number): boolean => {
    if (--budget < 0 || depth > 200) return budget < 0;
    if (v === null || typeof v === "boolean" || typeof v === "string") {
      if (typeof v === "string") budget -= v.length;
      return true;
    }
    if (typeof v === "number") return Number.isFinite(v);
    if (typeof v !== "object") return false;
    if (Array.isArray(v)) return v.every((item) => plain(item, depth + 1));
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.keys(v).every((k) => {
      budget -= k.length;
      return plain((v as Record<string, unknown>)[k], depth + 1);
    });
  };
  if (!plain(value, 0)) return "not_plain";
  if (budget < 0) return "too_large";
  return JSON.stringify(value);
}
