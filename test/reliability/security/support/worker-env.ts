import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { app } from "../../../../src/api/app.ts";

export type EnvAnswer = { status: number; code: string | undefined; message: string; json: Record<string, unknown>; text: string };

/** Random bytes as base64 (a fresh key or `whsec_` secret that no example holds). */
export function randomBase64(bytes = 32): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes))));
}

/**
 * The test bindings as a deployed Worker would have them: `LITTLE_ENV` unset and every guarded
 * variable a fresh value (the test configuration's own are well-known, so they would be refused).
 */
export function deployedEnv(overrides: Record<string, string | undefined> = {}): Record<string, unknown> {
  const vars: Record<string, unknown> = {
    ...(env as unknown as Record<string, unknown>),
    LITTLE_DEV_TOKEN: `dev_${crypto.randomUUID()}`,
    LITTLE_ADMIN_TOKEN: `admin_${crypto.randomUUID()}`,
    LITTLE_WEBHOOK_SECRET: `whsec_${randomBase64(24)}`,
    LITTLE_SECRETS_KEY: randomBase64(32),
  };
  delete vars.LITTLE_ENV;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete vars[name];
    else vars[name] = value;
  }
  return vars;
}

/**
 * One request to the Worker's app (the handler `src/worker.ts` exports) with these bindings: the
 * same routes, D1 and Durable Objects as `exports.default.fetch`, under another configuration.
 */
export async function fetchWithEnv(
  vars: Record<string, unknown>,
  method: string,
  path: string,
  options: { body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<EnvAnswer> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://little.test${path}`, {
      method,
      redirect: "manual",
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
    }),
    vars as unknown as Env,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // HTML or empty: status and text say enough.
  }
  const error = json.error as { code?: string; message?: string } | undefined;
  return { status: res.status, code: error?.code, message: error?.message ?? "", json, text };
}
