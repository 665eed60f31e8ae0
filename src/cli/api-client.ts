import { CliInputError, CliServerError } from "./cli-error.ts";

/** Where the server is and who we are, from flags first, then the environment. */
export type Connection = { readonly baseUrl: string; readonly token: string | undefined };

export const DEFAULT_URL = "http://localhost:8787";

/** How long an ordinary request may take before it is a `server_timeout`. */
const REQUEST_TIMEOUT_MS = 30_000;

/** Resolves `--url`/`LITTLE_URL` and `--token`/`LITTLE_TOKEN`; a malformed URL is a usage error (exit 2). */
export function connectionFrom(
  flags: { url?: string | undefined; token?: string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): Connection {
  const raw = flags.url ?? (env.LITTLE_URL || undefined) ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliInputError("invalid_url", `"${raw}" is not a URL; pass --url http://host:port or set LITTLE_URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliInputError("invalid_url", `"${raw}" is not an http(s) URL; pass --url http://host:port or set LITTLE_URL`);
  }
  url.search = "";
  url.hash = "";
  const token = flags.token ?? (env.LITTLE_TOKEN || undefined);
  return { baseUrl: url.toString().replace(/\/+$/, ""), token };
}

export type Query = Readonly<Record<string, string | number | undefined>>;

export type RequestOptions = {
  readonly query?: Query;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Overrides the bearer token (the admin token for `POST /v1/tokens`). */
  readonly token?: string;
  readonly timeoutMs?: number;
};

/** The /v1 HTTP API over fetch: JSON in, JSON out, every failure a {@link CliServerError} (exit 3). */
export class ApiClient {
  readonly connection: Connection;

  constructor(connection: Connection) {
    this.connection = connection;
  }

  /** An absolute URL for an API path (segments must already be encoded) plus query parameters. */
  url(path: string, query: Query = {}): string {
    const url = new URL(`${this.connection.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
    return this.request<T>("GET", path, options);
  }

  post<T>(path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
    return this.request<T>("POST", path, { ...options, body: options.body ?? {} });
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
    const url = this.url(path, options.query);
    const headers = this.headers(options.token, options.headers);
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw this.networkError(error, timeoutMs);
    }
    return { status: response.status, body: parseJsonResponse<T>(response, text) };
  }

  /** Opens a streaming GET (for Server-Sent Events); a non-2xx answer is read and thrown as its JSON error. */
  async stream(path: string, headers: Readonly<Record<string, string | undefined>>, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(this.url(path), { headers: { ...this.headers(undefined, headers), accept: "text/event-stream" }, signal });
    } catch (error) {
      throw this.networkError(error, 0);
    }
    if (!response.ok) {
      let text = "";
      try {
        text = await response.text();
      } catch (error) {
        throw this.networkError(error, 0);
      }
      parseJsonResponse(response, text);
    }
    return response;
  }

  /** Maps a fetch failure to `server_unreachable` (with the URL and the system error code) or `server_timeout`. */
  networkError(error: unknown, timeoutMs: number): CliServerError {
    if (error instanceof CliServerError) return error;
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError") {
      return new CliServerError({
        code: "server_timeout",
        message: `${this.connection.baseUrl} did not answer within ${timeoutMs / 1000} s`,
        url: this.connection.baseUrl,
      });
    }
    const reason = systemCode(error);
    return new CliServerError({
      code: "server_unreachable",
      message: `cannot reach the server at ${this.connection.baseUrl}${reason ? ` (${reason})` : ""}; is it running? (set --url or LITTLE_URL)`,
      url: this.connection.baseUrl,
    });
  }

  private headers(token: string | undefined, extra: Readonly<Record<string, string | undefined>> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json" };
    const bearer = token ?? this.connection.token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    for (const [key, value] of Object.entries(extra)) if (value !== undefined) headers[key] = value;
    return headers;
  }
}

/** Parses an API answer: 2xx JSON is returned; an error body is thrown verbatim; anything else is `bad_response`. */
function parseJsonResponse<T>(response: Response, text: string): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const snippet = text.trim().slice(0, 120).replace(/\s+/g, " ");
    throw new CliServerError(
      {
        code: "bad_response",
        message: `the server answered HTTP ${response.status} with a body that is not JSON${snippet ? `: ${snippet}` : ""}`,
      },
      response.status,
    );
  }
  if (response.ok) return body as T;
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    throw new CliServerError(error as { code: string; message: string }, response.status);
  }
  throw new CliServerError(
    { code: "bad_response", message: `the server answered HTTP ${response.status} without an error code` },
    response.status,
  );
}

/** The system error code under a fetch failure (ECONNREFUSED, ENOTFOUND…), else the innermost message. */
function systemCode(error: unknown): string | undefined {
  let message: string | undefined;
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    if (current instanceof Error && current.message) message = current.message;
    const errors = (current as { errors?: unknown }).errors;
    current = Array.isArray(errors) && errors.length > 0 ? errors[0] : (current as { cause?: unknown }).cause;
  }
  return message;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Encodes one path segment (a run, workflow or version id). */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
