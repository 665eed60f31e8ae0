import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { digestPrefix, digestText } from "../../json/digest.ts";
import { TOKEN_SCOPES, type TokenRecord } from "../../ports/token-store.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError, notFound } from "../api-error.ts";
import type { Principal } from "../auth.ts";
import { ErrorBody, json } from "../schemas.ts";

export const tokenRoutes = new OpenAPIHono<ApiEnv>();

/** The longest lifetime `expiresIn` accepts (ten years); beyond that, leave expiry out. */
const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 60 * 60;

const TENANT = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/);
const TOKEN_ID = z.string().regex(/^tok_[0-9a-f]{16}$/);

const Scopes = z
  .array(z.enum(TOKEN_SCOPES))
  .min(1)
  .max(TOKEN_SCOPES.length)
  .openapi({ description: "What the token may do; `admin` implies the others. Omitted: every scope (as tokens were before scopes)." });

const TokenView = z
  .object({
    id: TOKEN_ID.openapi({ example: "tok_3f2a9c0e1b4d5a67" }),
    tenant: z.string(),
    label: z.string().nullable(),
    scopes: z.array(z.enum(TOKEN_SCOPES)),
    createdAt: z.number().int().openapi({ description: "Epoch ms" }),
    expiresAt: z.number().int().nullable().openapi({ description: "Epoch ms; null: never expires" }),
    lastUsedAt: z.number().int().nullable().openapi({ description: "Epoch ms, to the minute; null: never used" }),
    revokedAt: z.number().int().nullable().openapi({ description: "Epoch ms; set only in the answer to a revocation" }),
  })
  .openapi("Token");

const tokenErrors = {
  400: json(ErrorBody, "Bad request"),
  401: json(ErrorBody, "Missing, invalid, expired or revoked token"),
  403: json(ErrorBody, "The token lacks the admin scope (insufficient_scope), or names another tenant"),
};

tokenRoutes.openapi(
  createRoute({
    method: "post",
    path: "/tokens",
    operationId: "createToken",
    tags: ["tokens"],
    summary: "Create an API token for a tenant (admin token)",
    description:
      "Needs `LITTLE_ADMIN_TOKEN` as the bearer: minting stays with the operator, so a leaked tenant token, once revoked, leaves nothing behind. The token is shown once; only its digest is stored. `expiresIn` (seconds) or `expiresAt` (epoch ms) sets an expiry; after it the token answers 401 `token_expired`.",
    request: {
      body: {
        content: {
          "application/json": {
            schema: z
              .object({
                tenant: TENANT,
                label: z.string().max(200).optional(),
                scopes: Scopes.optional(),
                expiresIn: z.number().int().min(1).max(MAX_EXPIRES_IN_SECONDS).optional(),
                expiresAt: z.number().int().min(0).max(8.64e15).optional(),
              })
              .strict(),
          },
        },
        required: true,
      },
    },
    responses: {
      201: json(TokenView.extend({ token: z.string() }), "The new token (its secret, shown once) and its record"),
      ...tokenErrors,
    },
  }),
  async (c) => {
    if (c.var.principal.kind !== "admin")
      throw new ApiError("unauthorized", "Creating tokens needs the admin token (LITTLE_ADMIN_TOKEN) as the bearer");
    const { tenant, label, scopes, expiresIn, expiresAt } = c.req.valid("json");
    const now = c.var.services.clock.now();
    if (expiresIn !== undefined && expiresAt !== undefined)
      throw new ApiError("token_expiry_invalid", "Give expiresIn or expiresAt, not both");
    if (expiresAt !== undefined && expiresAt <= now)
      throw new ApiError("token_expiry_invalid", `expiresAt ${new Date(expiresAt).toISOString()} is not in the future`);
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const token = `lwt_${btoa(String.fromCharCode(...bytes))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replaceAll("=", "")}`;
    const tokenHash = digestText(token);
    const record = {
      // Derived from the digest, so tokens minted before ids existed got the same kind (migration 0004).
      id: `tok_${digestPrefix(tokenHash, 16)}`,
      tokenHash,
      tenant,
      label: label ?? null,
      // Unique and in a stable order, whatever order the caller gave.
      scopes: TOKEN_SCOPES.filter((s) => (scopes ?? TOKEN_SCOPES).includes(s)),
      createdAt: now,
      expiresAt: expiresAt ?? (expiresIn !== undefined ? now + expiresIn * 1000 : null),
    };
    await c.var.services.tokens.put(record);
    return c.json({ token, ...view({ ...record, revokedAt: null, lastUsedAt: null }) }, 201);
  },
);

tokenRoutes.openapi(
  createRoute({
    method: "get",
    path: "/tokens",
    operationId: "listTokens",
    tags: ["tokens"],
    summary: "List a tenant's tokens (never their secrets)",
    description:
      "A tenant token with the `admin` scope lists its own tenant's tokens; the admin token names the tenant with `?tenant=`. Revoked tokens are left out; expired ones are listed with their `expiresAt`.",
    request: { query: z.object({ tenant: TENANT.optional() }) },
    responses: { 200: json(z.object({ tokens: z.array(TokenView) }), "The tenant's tokens, newest first"), ...tokenErrors },
  }),
  async (c) => {
    const tenant = callerTenant(c.var.principal, c.req.valid("query").tenant);
    const tokens = await c.var.services.tokens.list(tenant);
    return c.json({ tokens: tokens.map(view) }, 200);
  },
);

tokenRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/tokens/{tokenId}",
    operationId: "revokeToken",
    tags: ["tokens"],
    summary: "Revoke a token",
    description:
      "From this request on, the token answers 401 `token_revoked`. A tenant token with the `admin` scope revokes its own tenant's tokens (itself included); the admin token any tenant's. Revoking twice is a 404.",
    request: { params: z.object({ tokenId: TOKEN_ID }) },
    responses: { 200: json(TokenView, "The revoked token"), 404: json(ErrorBody, "No such live token"), ...tokenErrors },
  }),
  async (c) => {
    const { tokenId } = c.req.valid("param");
    const principal = c.var.principal;
    const revoked = await c.var.services.tokens.revoke(
      principal.kind === "admin" ? null : principal.tenant,
      tokenId,
      c.var.services.clock.now(),
    );
    // Another tenant's token is "not found" like a missing one: its id says nothing about who owns it.
    if (!revoked) throw notFound("token", tokenId);
    return c.json(view(revoked), 200);
  },
);

/** The tenant whose tokens the caller manages: its own, or for the admin token the one it names. */
function callerTenant(principal: Principal, named: string | undefined): string {
  if (principal.kind === "admin") {
    if (named === undefined) throw new ApiError("tenant_required", "The admin token names the tenant: ?tenant=<name>");
    return named;
  }
  if (named !== undefined && named !== principal.tenant)
    throw new ApiError("tenant_forbidden", `A token of tenant "${principal.tenant}" manages only that tenant's tokens`);
  return principal.tenant;
}

function view(record: TokenRecord): z.infer<typeof TokenView> {
  return {
    id: record.id,
    tenant: record.tenant,
    label: record.label,
    scopes: [...record.scopes],
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
  };
}
