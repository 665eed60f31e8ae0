import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { TENANT_PATTERN } from "../../sdk/names.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError } from "../api-error.ts";
import type { Principal } from "../principal.ts";
import { commonErrors, json } from "../schemas.ts";

/**
 * A tenant's retention override (docs/runs.md, "Retention and deletion"), managed like its tokens:
 * the admin token (LITTLE_ADMIN_TOKEN) for any tenant, a tenant token with the `admin` scope for
 * its own. The cron deletes the tenant's ended runs older than it instead of LITTLE_RETENTION_DAYS.
 */
export const retentionRoutes = new OpenAPIHono<ApiEnv>();

const RetentionView = z
  .object({
    tenant: z.string(),
    days: z.number().int().nullable().openapi({ description: "Days ended runs are kept; null: for ever" }),
    source: z
      .enum(["tenant", "default"])
      .openapi({ description: "`tenant`: the override; `default`: LITTLE_RETENTION_DAYS (or for ever)" }),
  })
  .openapi("Retention");

const params = z.object({ tenant: z.string().regex(TENANT_PATTERN) });

retentionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/tenants/{tenant}/retention",
    operationId: "getRetention",
    tags: ["tenants"],
    summary: "A tenant's retention: its override, else the Worker's default",
    description:
      "How long the tenant's ended runs are kept before the cron deletes them: its override (`source: tenant`), else LITTLE_RETENTION_DAYS (`source: default`; null: for ever). The admin token for any tenant, a tenant token with the `admin` scope for its own.",
    request: { params },
    responses: { 200: json(RetentionView, "The retention in force"), ...commonErrors },
  }),
  async (c) => {
    const tenant = managedTenant(c.var.principal, c.req.valid("param").tenant);
    return c.json(await retentionOf(c.var.services, tenant), 200);
  },
);

retentionRoutes.openapi(
  createRoute({
    method: "put",
    path: "/tenants/{tenant}/retention",
    operationId: "setRetention",
    tags: ["tenants"],
    summary: "Set (days, or null: keep for ever) or clear (`default: true`) a tenant's retention override",
    description:
      '`{ "days": 30 }` keeps the tenant\'s ended runs 30 days; `{ "days": null }` keeps them for ever whatever LITTLE_RETENTION_DAYS says; `{ "default": true }` removes the override. Applied from the next cron tick.',
    request: {
      params,
      body: {
        content: {
          "application/json": {
            schema: z.union([
              z.strictObject({ days: z.number().int().min(1).max(36_500).nullable() }),
              z.strictObject({ default: z.literal(true) }),
            ]),
          },
        },
        required: true,
      },
    },
    responses: { 200: json(RetentionView, "The retention in force now"), ...commonErrors },
  }),
  async (c) => {
    const tenant = managedTenant(c.var.principal, c.req.valid("param").tenant);
    const body = c.req.valid("json");
    const services = c.var.services;
    await services.deletions.setRetention(tenant, "days" in body ? body.days : undefined, services.clock.now());
    return c.json(await retentionOf(services, tenant), 200);
  },
);

async function retentionOf(services: ApiEnv["Variables"]["services"], tenant: string): Promise<z.infer<typeof RetentionView>> {
  const override = await services.deletions.retention(tenant);
  return override === undefined
    ? { tenant, days: services.retentionDays, source: "default" }
    : { tenant, days: override, source: "tenant" };
}

/** The admin token manages any tenant; an `admin`-scoped tenant token only its own. */
function managedTenant(principal: Principal, tenant: string): string {
  if (principal.kind === "tenant" && principal.tenant !== tenant)
    throw new ApiError("tenant_forbidden", `A token of tenant "${principal.tenant}" manages only that tenant's retention`);
  return tenant;
}
