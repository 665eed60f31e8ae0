import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { SECRET_NAME_PATTERN } from "../../sdk/define-workflow.ts";
import type { ApiEnv } from "../api-env.ts";
import { notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { commonErrors, ErrorBody, json } from "../schemas.ts";

/**
 * The tenant's secrets: write-only values (encrypted with AES-GCM under LITTLE_SECRETS_KEY),
 * listed by name. No route ever answers a value; runs receive the ones their LWIR permits.
 */
export const secretRoutes = new OpenAPIHono<ApiEnv>();
secretRoutes.use("/secrets", requireTenant());
secretRoutes.use("/secrets/*", requireTenant());

const SecretEntry = z.object({ name: z.string(), updatedAt: z.number() }).openapi("SecretEntry");
const NameParam = z.object({ name: z.string().regex(SECRET_NAME_PATTERN, "1–64 of A-Z, 0-9 and '_', starting with a letter") });

secretRoutes.openapi(
  createRoute({
    method: "get",
    path: "/secrets",
    operationId: "listSecrets",
    tags: ["secrets"],
    summary: "The tenant's secret names (never values)",
    description:
      "The tenant's secret names and when each was last set; never a value. `keyConfigured` says whether LITTLE_SECRETS_KEY is set.",
    responses: { 200: json(z.object({ secrets: z.array(SecretEntry), keyConfigured: z.boolean() }), "Names"), ...commonErrors },
  }),
  async (c) =>
    c.json({ secrets: await c.var.services.secrets.list(c.var.tenant), keyConfigured: c.var.services.secrets.keyConfigured }, 200),
);

secretRoutes.openapi(
  createRoute({
    method: "put",
    path: "/secrets/{name}",
    operationId: "putSecret",
    tags: ["secrets"],
    summary: "Set a secret (encrypted at rest); the answer never contains the value",
    description:
      "Stores (or replaces) a secret, encrypted with LITTLE_SECRETS_KEY. Workflows that bind it by name receive it at run time; the event log never shows it.",
    request: {
      params: NameParam,
      body: { content: { "application/json": { schema: z.object({ value: z.string().min(1).max(16_384) }) } }, required: true },
    },
    responses: { 200: json(SecretEntry, "Stored"), 409: json(ErrorBody, "No secrets key is configured"), ...commonErrors },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    const at = c.var.services.clock.now();
    await c.var.services.secrets.put(c.var.tenant, name, c.req.valid("json").value, at);
    return c.json({ name, updatedAt: at }, 200);
  },
);

secretRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/secrets/{name}",
    operationId: "deleteSecret",
    tags: ["secrets"],
    summary: "Delete a secret",
    description: "Deletes a secret. A start of a workflow that binds it is then refused (409 `secret_missing`) until it is set again.",
    request: { params: NameParam },
    responses: { 200: json(z.object({ deleted: z.literal(true) }), "Deleted"), ...commonErrors },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    if (!(await c.var.services.secrets.delete(c.var.tenant, name))) throw notFound("secret", name);
    return c.json({ deleted: true as const }, 200);
  },
);
