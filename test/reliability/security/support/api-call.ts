import { exports } from "cloudflare:workers";

export const DEV_TOKEN = "test-dev-token";

export type ApiAnswer = { status: number; code: string | undefined; json: Record<string, unknown>; text: string; headers: Headers };

/** One request to the Worker's /v1 API through its own fetch, as the dev tenant unless `token` is null. */
export async function api(
  method: string,
  path: string,
  options: { body?: string | Uint8Array; token?: string | null; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json", ...(options.headers ?? {}) };
  const token = options.token === undefined ? DEV_TOKEN : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await exports.default.fetch(`http://little.test${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: status and text say enough.
  }
  return { status: res.status, code: (json.error as { code?: string } | undefined)?.code, json, text, headers: res.headers };
}
