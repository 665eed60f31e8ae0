import { exports } from "cloudflare:workers";

/** The dev tenant's bearer in the workers test project (vitest.config.ts). */
export const DEV_TOKEN = "test-dev-token";

export type Json = Record<string, unknown> & { error?: { code: string; message: string; findings?: { path: string }[] } };

/** One request to the Worker's real fetch handler, with the dev token unless told otherwise. */
export async function call(
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; json: Json; text: string }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? DEV_TOKEN : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const body = options.body !== undefined ? JSON.stringify(options.body) : undefined;
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const res = await exports.default.fetch(`http://little.test${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text.startsWith("{") ? JSON.parse(text) : {}) as Json, text };
}

/** A token for a new tenant, made with the admin token. */
export async function tenantToken(tenant: string): Promise<string> {
  const r = await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant } });
  if (r.status !== 201) throw new Error(`token for ${tenant}: ${r.status} ${r.text}`);
  return r.json.token as string;
}

/** Every event of a run, through the API. */
export async function runEvents(runId: string, token: string = DEV_TOKEN): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const r = await call("GET", `/v1/runs/${runId}/events?limit=1000`, { token });
  return r.json.events as { type: string; payload: Record<string, unknown> }[];
}
