import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { matchedRoutes } from "hono/route";
import { digestText } from "../json/digest.ts";
import { TOKEN_SCOPES, type TokenScope, type TokenStore } from "../ports/token-store.ts";
import type { ApiEnv, ApiVars } from "./api-env.ts";
import { ApiError } from "./api-error.ts";
import type { Principal } from "./principal.ts";
import { routeAccess, scopesAllow } from "./route-scopes.ts";

// Its own file so the env type (api-env.ts) can name it without importing this middleware.
export type { Principal };

/** The tenant that `LITTLE_DEV_TOKEN` authenticates as. */
export const DEV_TENANT = "dev";

/** The run inspector's session cookie: it holds the same token as the bearer (see {@link sessionToken}). */
export const SESSION_COOKIE = "little_session";

/** A token's last use is written at most this often: a D1 write per request would double the hot path. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Authentication and authorization of every route, in one place (app.ts mounts it on `/v1/*`):
 * the route's access comes from {@link routeAccess} (unlisted routes need `admin`), the token from
 * the bearer header or, on same-origin requests, the inspector's session cookie. Refusals:
 * 401 `unauthorized` | `token_expired` | `token_revoked`; 403 `insufficient_scope` naming the
 * scope. Sets `principal` and, for tenant tokens, `tenant`. Runs once per request however many
 * sub-apps mount it.
 */
export function authorize(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (c.get("principal") !== undefined) return next();
    // No endpoint matches (only middleware): the JSON 404 answers and nothing runs, so there is
    // nothing to guard; every route that exists is in the public OpenAPI document anyway.
    if (!hasEndpoint(c)) return next();
    const access = routeAccess(c.req.method, c.req.path);
    if (access === "public") return next();
    const token = bearerToken(c.req.header("authorization")) ?? sessionToken(c);
    if (!token) throw new ApiError("unauthorized", "Send a bearer token: Authorization: Bearer <token>");
    const services = c.get("services");
    const now = services.clock.now();
    const principal = await authenticate(c.env, services.tokens, token, now);
    if (principal.kind === "admin") {
      // The admin token has no tenant: it manages tokens and tenants' settings (retention), nothing else.
      if (c.req.path !== "/v1/tokens" && !c.req.path.startsWith("/v1/tokens/") && !c.req.path.startsWith("/v1/tenants/"))
        throw new ApiError(
          "unauthorized",
          "The admin token manages tokens (/v1/tokens) and tenants (/v1/tenants) only; use a tenant token here",
        );
    } else {
      if (!scopesAllow(principal.scopes, access)) throw insufficientScope(access);
      c.set("tenant", principal.tenant);
      if (principal.tokenId !== null) recordUse(c, services.tokens, principal.tokenId, principal.lastUsedAt, now);
    }
    c.set("principal", principal);
    await next();
  };
}

/**
 * Route-level guard kept for the sub-apps: the same check as {@link authorize} (a no-op when that
 * already ran), then requires a tenant.
 */
export function requireTenant(): MiddlewareHandler<ApiEnv> {
  const check = authorize();
  return async (c, next) =>
    check(c, async () => {
      if (c.get("tenant") === undefined && hasEndpoint(c)) throw new ApiError("unauthorized", "This route needs a tenant token");
      await next();
    });
}

/** Whether a route (not only middleware) matched the request; hono registers middleware as method ALL. */
function hasEndpoint(c: Context): boolean {
  return matchedRoutes(c).some((route) => route.method !== "ALL");
}

/** 403 for a token without the scope, with the RFC 6750 challenge that names it. */
export function insufficientScope(needed: TokenScope): ApiError {
  return new ApiError("insufficient_scope", `This token lacks the "${needed}" scope this route needs`, {
    findings: [{ severity: "error", code: "token.scope_missing", path: "$", message: `needs scope ${needed}` }],
    headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}"` },
  });
}

/** The token from an `Authorization: Bearer …` header. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

/**
 * Who a token is, or a 401 {@link ApiError}: `LITTLE_ADMIN_TOKEN` is the admin, `LITTLE_DEV_TOKEN`
 * tenant `dev` with every scope, any other token is looked up by its digest and must be neither
 * revoked nor expired (checked on every request: revocation takes effect at once).
 */
export async function authenticate(vars: ApiVars, tokens: TokenStore, token: string, now: number): Promise<Principal> {
  const hash = digestText(token);
  const admin = vars.LITTLE_ADMIN_TOKEN;
  if (typeof admin === "string" && admin !== "" && hash === digestText(admin)) return { kind: "admin" };
  const dev = vars.LITTLE_DEV_TOKEN;
  if (typeof dev === "string" && dev !== "" && hash === digestText(dev))
    return { kind: "tenant", tenant: DEV_TENANT, scopes: TOKEN_SCOPES, tokenId: null, lastUsedAt: null };
  const record = await tokens.byHash(hash);
  if (!record) throw new ApiError("unauthorized", "The bearer token is not valid");
  if (record.revokedAt !== null) throw new ApiError("token_revoked", `Token ${record.id} was revoked`);
  if (record.expiresAt !== null && now >= record.expiresAt)
    throw new ApiError("token_expired", `Token ${record.id} expired at ${new Date(record.expiresAt).toISOString()}`);
  return { kind: "tenant", tenant: record.tenant, scopes: record.scopes, tokenId: record.id, lastUsedAt: record.lastUsedAt };
}

/**
 * The session cookie's token, only on requests the browser marks same-origin
 * (`Sec-Fetch-Site: same-origin`): the cookie is SameSite=Strict already, and this refuses it on
 * anything a browser sent for another site even where SameSite is not enforced.
 */
export function sessionToken(c: Context): string | null {
  if (c.req.header("sec-fetch-site") !== "same-origin") return null;
  const value = getCookie(c, SESSION_COOKIE);
  return value && value.length > 0 ? value : null;
}

/** Writes `last_used_at` after the response, at most once a minute per token; a failed write is dropped. */
function recordUse(c: Context, tokens: TokenStore, id: string, lastUsedAt: number | null, now: number): void {
  if (lastUsedAt !== null && now - lastUsedAt < LAST_USED_RESOLUTION_MS) return;
  const write = tokens.touch(id, now).catch(() => undefined);
  try {
    c.executionCtx.waitUntil(write);
  } catch {
    // No execution context (a bare app.request in a test): the write just runs unawaited.
  }
}
