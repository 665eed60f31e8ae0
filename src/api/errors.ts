import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";
import { ApiError } from "./api-error.ts";
import { type ErrorCode, isErrorCode, isInternal, statusOf } from "./error-status.ts";
import { missingMigration } from "./missing-migration.ts";

/** The one JSON error body every route returns. */
export type ApiErrorBody = { error: { code: string; message: string; findings?: unknown } };

/**
 * Maps any thrown value to a JSON response: a named error to the status its code has in the one
 * table (error-status.ts); an internal code, or anything else, to a logged 500 `internal_error`.
 */
export function errorResponse(c: Context, error: unknown): Response {
  const known = namedError(error);
  if (known)
    return c.json<ApiErrorBody>(
      body(known.code, known.message, known.findings),
      known.status,
      known.headers ? { ...known.headers } : undefined,
    );
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 413) return named(c, "payload_too_large", "The request body is too large");
    if (status === 400) return named(c, "invalid_json", `The request body is not valid JSON: ${error.message}`);
    if (status === 415) return named(c, "unsupported_media_type", "Send the body as application/json");
    return c.json<ApiErrorBody>(body("http_error", error.message), status);
  }
  console.error("unhandled error", error);
  return named(c, "internal_error", "An internal error occurred; it has been logged.");
}

/** A named error as the API answers it: what the HTTP handler and the RPC entrypoint (rpc-error.ts) both send. */
export type NamedError = {
  readonly code: string;
  readonly message: string;
  readonly status: ContentfulStatusCode;
  readonly findings: readonly Finding[] | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
};

/**
 * An `ApiError`, or a `LittleError` whose code is not internal, with the status the table gives
 * its code; undefined for anything else (an internal code, a bug): the caller logs it and answers
 * `internal_error`.
 */
export function namedError(error: unknown): NamedError | undefined {
  if (error instanceof ApiError)
    return { code: error.code, message: error.message, status: error.status, findings: error.findings, headers: error.headers };
  const unmigrated = missingMigration(error);
  if (unmigrated) return { ...unmigrated, findings: undefined };
  if (LittleError.is(error) && !(isErrorCode(error.code) && isInternal(error.code))) {
    const { findings, retryAfterSeconds } = error as { findings?: readonly Finding[]; retryAfterSeconds?: unknown };
    // A refusal that passes with time (a quota, an unconfirmed start) says when to come back.
    const headers = typeof retryAfterSeconds === "number" ? { "retry-after": String(retryAfterSeconds) } : undefined;
    // A named error from a package with codes of its own (not in the table): a 400, as always.
    return { code: error.code, message: error.message, status: isErrorCode(error.code) ? statusOf(error.code) : 400, findings, headers };
  }
  return undefined;
}

/** A JSON error response for a code of the table, with the status the table gives it. */
export function named(c: Context, code: ErrorCode, message: string, findings?: unknown): Response {
  return c.json<ApiErrorBody>(body(code, message, findings), statusOf(code));
}

function body(code: string, message: string, findings?: unknown): ApiErrorBody {
  return { error: { code, message, ...(findings !== undefined ? { findings } : {}) } };
}
