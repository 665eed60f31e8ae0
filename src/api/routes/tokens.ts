import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { digestText } from "../../identity/digest.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError } from "../api-error.ts";
import { bearerToken } from "../auth.ts";
import { ErrorBody, json } from "../schemas.ts";

export const tokenRoutes = new OpenAPIHono<ApiEnv>();

tokenRoutes.openapi(
  createRoute({
    method: "post",
    path: "/tokens",
    summary: "Create an API token for a tenant (admin)",
    description: "Needs `LITTLE_ADMIN_TOKEN` as the bearer. The token is shown once; only its digest is stored.",
    request: {
      body: {
        content: {
          "application/json": {
            schema: z.object({ tenant: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/), label: z.string().max(200).optional() }),
          },
        },
        required: true,
      },
    },
    responses: {
      201: json(z.object({ token: z.string(), tenant: z.string() }), "The new token"),
      401: json(ErrorBody, "Not the admin token"),
    },
  }),
  async (c) => {
    const admin = c.env.LITTLE_ADMIN_TOKEN;
    const given = bearerToken(c.req.header("authorization"));
    if (typeof admin !== "string" || admin === "" || !given || digestText(given) !== digestText(admin)) {
      throw new ApiError(401, "unauthorized", "Creating tokens needs the admin token (LITTLE_ADMIN_TOKEN) as the bearer");
    }
    const { tenant, label } = c.req.valid("json");
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const token = `lwt_${btoa(String.fromCharCode(...bytes))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replaceAll("=", "")}`;
    await c.var.services.tokens.put(digestText(token), tenant, label ?? null, Date.now());
    return c.json({ token, tenant }, 201);
  },
);
