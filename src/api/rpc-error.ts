import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";
import { type ErrorCode, statusOf } from "./error-status.ts";
import { namedError } from "./errors.ts";

/**
 * What a {@link LittleWorkflowEntrypoint} method throws: the same stable `code`, `status` and
 * `findings` the HTTP API answers with (docs/api.md), as own properties, which Workers RPC
 * carries to the caller. The caller gets a plain `Error` (RPC does not keep the class), so branch
 * on `error.name === "LittleRpcError"` and `error.code`.
 *
 * @example
 * try { await env.LITTLE.startRun("support.summarize-ticket", {}) }
 * catch (error) { if (error.name === "LittleRpcError" && error.code === "input_schema_error") … }
 */
export class LittleRpcError extends LittleError {
  readonly code: string;
  /** The HTTP status the API answers this code with. */
  readonly status: number;
  readonly findings: readonly Finding[] | undefined;
  constructor(code: string, message: string, status: number, findings?: readonly Finding[]) {
    super(message);
    this.name = "LittleRpcError";
    this.code = code;
    this.status = status;
    this.findings = findings;
  }
}

/**
 * Any error of a start or read as the RPC caller sees it, mapped as the HTTP error handler
 * (errors.ts) maps it: a named error keeps its code; anything else is `internal_error`, logged
 * here and never shown (no stack or internal message crosses the binding).
 */
export function toRpcError(error: unknown): LittleRpcError {
  if (error instanceof LittleRpcError) return error;
  const known = namedError(error);
  if (known) return new LittleRpcError(known.code, known.message, known.status, known.findings);
  console.error("unhandled error in an RPC call", error);
  const code: ErrorCode = "internal_error";
  return new LittleRpcError(code, "An internal error occurred; it has been logged.", statusOf(code));
}
