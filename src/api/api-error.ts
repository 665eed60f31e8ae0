import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";
import { type ALSO_ANSWERED_WITH, type ErrorCode, statusOf } from "./error-status.ts";

/** The second status a code may be answered with at one route (error-status.ts), else none. */
type AlternateStatus<C extends ErrorCode> = C extends keyof typeof ALSO_ANSWERED_WITH ? (typeof ALSO_ANSWERED_WITH)[C] : never;

export type ApiErrorOptions<C extends ErrorCode> = {
  /** What explains the refusal (bad fields, findings of a validator). */
  readonly findings?: readonly Finding[] | undefined;
  /** Response headers the refusal needs (`Retry-After`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Only for the codes error-status.ts lists as answered with a second status at one route. */
  readonly status?: AlternateStatus<C>;
};

/**
 * An error the API answers with a 4xx: a stable `code` of the one status table (error-status.ts),
 * a message for people, and optionally the findings that explain it. Thrown from any route;
 * turned into JSON in one place (errors.ts). The status comes from the code.
 *
 * @example
 * throw new ApiError("run_ended", `Run ${runId} has ended`); // 409
 */
export class ApiError<C extends ErrorCode = ErrorCode> extends LittleError {
  readonly code: C;
  readonly status: ContentfulStatusCode;
  readonly findings: readonly Finding[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  constructor(code: C, message: string, options: ApiErrorOptions<C> = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? statusOf(code);
    this.findings = options.findings;
    this.headers = options.headers;
  }
}

/** What {@link notFound} can name: each `<what>_not_found` is a code of the table. */
export type NotFoundSubject = "run" | "workflow" | "version" | "definition" | "definition_approval" | "secret" | "token" | "approval";

export const notFound = (what: NotFoundSubject, id: string) => new ApiError(`${what}_not_found`, `No ${what.replaceAll("_", " ")} "${id}"`);
