import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";

/**
 * An error the API answers with a 4xx: a stable `code`, a message for people, and optionally the
 * findings that explain it. Thrown from any route; turned into JSON in one place (errors.ts).
 */
export class ApiError extends LittleError {
  readonly code: string;
  readonly status: ContentfulStatusCode;
  readonly findings: readonly Finding[] | undefined;
  /** Response headers the refusal needs (`Retry-After`, `WWW-Authenticate`). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    findings?: readonly Finding[],
    headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.findings = findings;
    this.headers = headers;
  }
}

export const notFound = (what: string, id: string) => new ApiError(404, `${what}_not_found`, `No ${what.replaceAll("_", " ")} "${id}"`);
