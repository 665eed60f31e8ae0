import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LittleError } from "../sdk/errors/little-error.ts";

/** The one JSON error body every route returns. */
export type ApiErrorBody = { error: { code: string; message: string; findings?: unknown } };

/** HTTP status for each named error code; unlisted LittleErrors are 400. */
const STATUS_BY_CODE: Record<string, ContentfulStatusCode> = {
  not_found: 404,
  workflow_missing_tool: 422,
  workflow_definition_invalid: 422,
  lwir_invalid: 422,
};

/** Maps any thrown value to a JSON response: named errors to 4xx, anything else to a logged 500. */
export function errorResponse(c: Context, error: unknown): Response {
  if (LittleError.is(error)) {
    const findings = (error as { findings?: unknown }).findings;
    const body: ApiErrorBody = { error: { code: error.code, message: error.message, ...(findings ? { findings } : {}) } };
    return c.json(body, STATUS_BY_CODE[error.code] ?? 400);
  }
  console.error("unhandled error", error);
  const body: ApiErrorBody = { error: { code: "internal_error", message: "An internal error occurred; it has been logged." } };
  return c.json(body, 500);
}
