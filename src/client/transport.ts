import { anySignal } from "./any-signal.ts";
import { type ClientErrorBody, LittleClientError } from "./client-error.ts";

/** A `fetch`: the global one, a service binding's (`env.LITTLE.fetch.bind(env.LITTLE)`), or a test's. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export type Query = Readonly<Record<string, string | number | null | undefined | readonly string[]>>;

/** Per-call options every client method takes. */
export type CallOptions = {
  /** Aborts the call (and, for `events`, the stream). */
  readonly signal?: AbortSignal;
  /** Overrides the client's timeout for this call, in milliseconds (0: none). */
  readonly timeoutMs?: number;
  /** Overrides the client's bearer token for this call (the admin token for `createToken`). */
  readonly token?: string;
};

export type RequestSpec = CallOptions & {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  /** An API path; its segments already encoded (see {@link segment}). */
  readonly path: string;
  readonly query?: Query;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | undefined>>;
};

export type TransportOptions = {
  readonly baseUrl: string;
  readonly token?: string | undefined;
  readonly fetch?: FetchLike | undefined;
  readonly timeoutMs?: number | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
};

/** How long an ordinary request may take before it is `server_timeout`. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The /v1 API over fetch: JSON in, JSON out; every failure a {@link LittleClientError}. Uses only
 * what Node, browsers and Workers share (fetch, URL, AbortSignal).
 */
export class Transport {
  readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly fetcher: FetchLike;
  private readonly timeoutMs: number;
  private readonly extraHeaders: Readonly<Record<string, string>>;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    // Called as a plain function: workerd refuses a global fetch invoked with another `this`.
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.extraHeaders = options.headers ?? {};
  }

  /** An absolute URL for an API path plus query parameters (undefined ones left out). */
  url(path: string, query: Query = {}): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) {
      // An array repeats the parameter (`?tag=a:1&tag=b:2`).
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Sends one request and returns its JSON body; a non-2xx answer is thrown as the API's error. */
  async json<T>(spec: RequestSpec): Promise<T> {
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const headers = this.headers(spec.token, spec.headers);
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    let text: string;
    try {
      response = await this.fetcher(this.url(spec.path, spec.query), {
        method: spec.method,
        headers,
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
        ...signalOf(spec.signal, timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw this.networkError(error, timeoutMs, spec.signal);
    }
    return parseJsonResponse<T>(response, text);
  }

  /** Opens a Server-Sent Events stream; a non-2xx answer is read and thrown as the API's error. */
  async stream(path: string, headers: Readonly<Record<string, string | undefined>>, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetcher(this.url(path), {
        headers: { ...this.headers(undefined, headers), accept: "text/event-stream" },
        signal,
      });
    } catch (error) {
      throw this.networkError(error, 0, signal);
    }
    if (!response.ok) {
      let text = "";
      try {
        text = await response.text();
      } catch (error) {
        throw this.networkError(error, 0, signal);
      }
      parseJsonResponse(response, text);
    }
    return response;
  }

  /** A fetch failure as `server_timeout` or `server_unreachable` (with the system error code when there is one). */
  networkError(error: unknown, timeoutMs: number, signal?: AbortSignal): unknown {
    if (error instanceof LittleClientError) return error;
    // The caller aborted: theirs to handle, not a server failure.
    if (signal?.aborted) return signal.reason ?? error;
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError") {
      return new LittleClientError(
        { code: "server_timeout", message: `${this.baseUrl} did not answer within ${timeoutMs / 1000} s`, url: this.baseUrl },
        { cause: error },
      );
    }
    const reason = systemCode(error);
    return new LittleClientError(
      {
        code: "server_unreachable",
        message: `cannot reach the server at ${this.baseUrl}${reason ? ` (${reason})` : ""}`,
        url: this.baseUrl,
      },
      { cause: error },
    );
  }

  private headers(token: string | undefined, extra: Readonly<Record<string, string | undefined>> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", ...this.extraHeaders };
    const bearer = token ?? this.token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    for (const [key, value] of Object.entries(extra)) if (value !== undefined) headers[key] = value;
    return headers;
  }
}

function signalOf(signal: AbortSignal | undefined, timeoutMs: number): { signal?: AbortSignal } {
  const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
  if (signal && timeout) return { signal: anySignal([signal, timeout]) };
  const one = signal ?? timeout;
  return one ? { signal: one } : {};
}

/** An API answer: 2xx JSON is returned; an error body is thrown verbatim; anything else is `bad_response`. */
function parseJsonResponse<T>(response: Response, text: string): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const snippet = text.trim().slice(0, 120).replace(/\s+/g, " ");
    throw new LittleClientError(
      {
        code: "bad_response",
        message: `the server answered HTTP ${response.status} with a body that is not JSON${snippet ? `: ${snippet}` : ""}`,
      },
      { status: response.status },
    );
  }
  if (response.ok) return body as T;
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
    throw new LittleClientError(error as ClientErrorBody, {
      status: response.status,
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
    });
  }
  throw new LittleClientError(
    { code: "bad_response", message: `the server answered HTTP ${response.status} without an error code` },
    { status: response.status },
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

/** Encodes one path segment (a run, workflow, approval or version id). */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
