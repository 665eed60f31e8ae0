/** The error body the API answers with (`{ "error": { code, message, … } }`), kept verbatim. */
export type ClientErrorBody = { readonly code: string; readonly message: string; readonly [key: string]: unknown };

/**
 * Every failure of a {@link LittleClient} call. `code` is stable: the API's own error code
 * (`run_not_found`, `input_schema_error`, `quota_exceeded`, … — docs/api.md lists them all), or
 * one of the client's for a failure on the wire:
 *
 * - `server_unreachable`: the request never got an answer (DNS, refused, reset); `status` is undefined;
 * - `server_timeout`: no answer within the call's timeout;
 * - `bad_response`: the server answered, but not with the API's JSON (a proxy's HTML page, a cut stream).
 *
 * `body` is the API's error object exactly as sent (with `findings` when the API explains a refusal);
 * a 429 carries the server's `Retry-After` in `retryAfterSeconds`.
 *
 * @example
 * try {
 *   await client.startRun("support.summarize-ticket", { ticketId: 7 });
 * } catch (error) {
 *   if (error instanceof LittleClientError && error.code === "input_schema_error") console.log(error.findings);
 * }
 */
export class LittleClientError extends Error {
  readonly code: string;
  /** The HTTP status, when the server answered at all. */
  readonly status: number | undefined;
  readonly body: ClientErrorBody;
  /** Seconds the server asked to wait before retrying (`Retry-After` on 429 `quota_exceeded`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    body: ClientErrorBody,
    options: { status?: number | undefined; retryAfterSeconds?: number | undefined; cause?: unknown } = {},
  ) {
    super(body.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LittleClientError";
    this.code = body.code;
    this.status = options.status;
    this.body = body;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The findings that explain a refusal (`input_schema_error`, `lwir_invalid`, `invalid_request`), else none. */
  get findings(): readonly { readonly code: string; readonly path: string; readonly message: string; readonly severity?: string }[] {
    return Array.isArray(this.body.findings) ? this.body.findings : [];
  }
}
