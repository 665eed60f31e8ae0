import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LittleError } from "../sdk/errors/little-error.ts";
import { ApiError } from "./api-error.ts";

/** The one JSON error body every route returns. */
export type ApiErrorBody = { error: { code: string; message: string; findings?: unknown } };

/** HTTP status for named errors that are not {@link ApiError}s; unlisted LittleErrors are 400. */
const STATUS_BY_CODE: Record<string, ContentfulStatusCode> = {
  workflow_missing_tool: 422,
  workflow_definition_invalid: 422,
  workflow_not_registered: 404,
  lwir_invalid: 422,
  canonical_json_rejected: 400,
  definition_not_approved: 403,
  definition_projection_missing: 409,
  secrets_key_missing: 409,
  secrets_key_invalid: 409,
  secret_missing: 409,
  secret_undecryptable: 409,
  model_unavailable: 409,
  model_config_invalid: 422,
};

/** Maps any thrown value to a JSON response: named errors to 4xx, anything else to a logged 500. */
export function errorResponse(c: Context, error: unknown): Response {
  if (error instanceof ApiError)
    return c.json<ApiErrorBody>(
      body(error.code, error.message, error.findings),
      error.status,
      error.headers ? { ...error.headers } : undefined,
    );
  if (LittleError.is(error)) {
    const findings = (error as { findings?: unknown }).findings;
    return c.json<ApiErrorBody>(body(error.code, error.message, findings), STATUS_BY_CODE[error.code] ?? 400);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 413) return c.json<ApiErrorBody>(body("payload_too_large", "The request body is too large"), 413);
    if (status === 400) return c.json<ApiErrorBody>(body("invalid_json", `The request body is not valid JSON: ${error.message}`), 400);
    if (status === 415) return c.json<ApiErrorBody>(body("unsupported_media_type", "Send the body as application/json"), 415);
    return c.json<ApiErrorBody>(body("http_error", error.message), status);
  }
  console.error("unhandled error", error);
  return c.json<ApiErrorBody>(body("internal_error", "An internal error occurred; it has been logged."), 500);
}

function body(code: string, message: string, findings?: unknown): ApiErrorBody {
  return { error: { code, message, ...(findings !== undefined ? { findings } : {}) } };
}
