import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { digestText } from "../identity/digest.ts";
import type { TokenStore } from "../ports/token-store.ts";
import type { ApiEnv, ApiVars } from "./api-env.ts";
import { ApiError } from "./api-error.ts";

/** The tenant that `LITTLE_DEV_TOKEN` authenticates as. */
export const DEV_TENANT = "dev";

/** The run inspector's session cookie: it holds the same token as the bearer (see {@link sessionToken}). */
export const SESSION_COOKIE = "little_session";

/**
 * Bearer-token authentication: the token's digest is looked up in D1 (tokens are stored hashed),
 * or it equals `LITTLE_DEV_TOKEN` (tenant `dev`; set in `.dev.vars`, never deployed unless on
 * purpose). Without an Authorization header, the run inspector's session cookie is accepted on
 * same-origin requests. Sets `tenant` for the routes.
 */
export function requireTenant(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header("authorization")) ?? sessionToken(c);
    if (!token) throw new ApiError(401, "unauthorized", "Send a bearer token: Authorization: Bearer <token>");
    const tenant = await tenantOfToken(c.env, c.get("services").tokens, token);
    if (!tenant) throw new ApiError(401, "unauthorized", "The bearer token is not valid");
    c.set("tenant", tenant);
    await next();
  };
}

/** The token from an `Authorization: Bearer …` header. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

/**
 * The tenant a token authenticates as, or null: `LITTLE_DEV_TOKEN` is tenant `dev`, any other
 * token is looked up by its digest.
 *
 * @example
 * await tenantOfToken(env, tokens, "tok_…") // "acme" | null
 */
export async function tenantOfToken(vars: ApiVars, tokens: TokenStore, token: string): Promise<string | null> {
  const hash = digestText(token);
  const dev = vars.LITTLE_DEV_TOKEN;
  return typeof dev === "string" && dev !== "" && hash === digestText(dev) ? DEV_TENANT : await tokens.tenantOf(hash);
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
