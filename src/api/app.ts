import { Hono } from "hono";
import { CANONICALIZER_ID } from "../identity/canonical-json.ts";
import { LWIR_API_VERSION } from "../lwir/types.ts";
import { type ApiErrorBody, errorResponse } from "./errors.ts";

/** The Worker's HTTP surface. Bindings are typed by `Env` (wrangler types). */
export const app = new Hono<{ Bindings: Env }>();

/**
 * Liveness and wiring: answers 200 when the Worker runs and D1 answers a query.
 *
 * @example
 * curl localhost:8787/v1/health // {"ok":true,"service":"little-workflow",...}
 */
app.get("/v1/health", async (c) => {
  const d1 = await c.env.DB.prepare("SELECT 1 AS ok")
    .first<{ ok: number }>()
    .then((row) => (row?.ok === 1 ? "ok" : "unavailable"))
    .catch(() => "unavailable" as const);
  const ok = d1 === "ok";
  return c.json(
    { ok, service: "little-workflow", lwirApiVersion: LWIR_API_VERSION, canonicalizer: CANONICALIZER_ID, sandbox: c.env.LITTLE_SANDBOX, d1 },
    ok ? 200 : 503,
  );
});

app.notFound((c) => c.json<ApiErrorBody>({ error: { code: "not_found", message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}` } }, 404));
app.onError((error, c) => errorResponse(c, error));
