/** A CLI failure that is the input's fault: printed as JSON on stderr, exit code 2. */
export class CliInputError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "CliInputError";
    this.code = code;
  }
}

/**
 * A failure on the server's side of the wire, exit code 3: the server answered with an error (its
 * `{ "error": {...} }` body is kept verbatim in {@link body} so `--json` can pass it through), or
 * it could not be reached (`server_unreachable`), timed out, or answered something that is not the
 * API's JSON (`bad_response`).
 */
export class CliServerError extends Error {
  readonly code: string;
  /** The HTTP status, when the server answered at all. */
  readonly status: number | undefined;
  /** The error object exactly as printed under `{"error": ...}` with `--json`. */
  readonly body: { readonly code: string; readonly message: string; readonly [key: string]: unknown };
  constructor(body: { readonly code: string; readonly message: string; readonly [key: string]: unknown }, status?: number) {
    super(body.message);
    this.name = "CliServerError";
    this.code = body.code;
    this.status = status;
    this.body = body;
  }
}
