import type { MiddlewareHandler } from "hono";
import { digestText } from "../identity/digest.ts";
import type { ApiEnv } from "./api-env.ts";
import { ApiError } from "./api-error.ts";

/** The tenant that `LITTLE_DEV_TOKEN` authenticates as. */
export const DEV_TENANT = "dev";

/**
 * Bearer-token authentication: the token's digest is looked up in D1 (tokens are stored hashed),
 * or it equals `LITTLE_DEV_TOKEN` (tenant `dev`; set in `.dev.vars`, never deployed unless on
 * purpose). Sets `tenant` for the routes.
 */
export function requireTenant(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw new ApiError(401, "unauthorized", "Send a bearer token: Authorization: Bearer <token>");
    const hash = digestText(token);
    const dev = c.env.LITTLE_DEV_TOKEN;
    const tenant =
      typeof dev === "string" && dev !== "" && hash === digestText(dev) ? DEV_TENANT : await c.get("services").tokens.tenantOf(hash);
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
