/** A small JSON client for the bench Worker's /v1 and /bench routes. */

/** An answer: status, parsed body, round trip, and the headers (the bench Worker adds its D1 count). */
export type Answer<T> = { status: number; body: T; ms: number; headers: Headers };

export type BenchRun = {
  runId: string;
  status: string;
  cause: { code: string; message: string } | null;
  ackMs: number;
  wallMs: number;
  engineMs: number;
  inObjectMs: number;
  modelCalls: number;
  plannerCalls: number;
  /** Tokens of this run's model calls (the offline model counts about 4 characters a token). */
  inputTokens: number;
  outputTokens: number;
  versionId: string | null;
  eventCount: number;
  output: unknown;
};

export type ModelCalls = { planner: number; worker: number; fixer: number; total: number; inputTokens: number; outputTokens: number };

export function benchClient(base: string, token: string) {
  async function call<T>(method: string, path: string, body?: unknown, extraHeaders?: Record<string, string>): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...extraHeaders, authorization: `Bearer ${token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    const ms = performance.now() - started;
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, ms, headers: res.headers };
  }

  /** A call that must answer 2xx; anything else is an error with the answer in its message. */
  async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await call<T>(method, path, body);
    if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} → ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  return { call, ok };
}

export type BenchClient = ReturnType<typeof benchClient>;
