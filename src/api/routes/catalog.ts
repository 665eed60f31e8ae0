import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { commonErrors, json } from "../schemas.ts";
import { capabilitiesOf } from "../workflow-capabilities.ts";

/** Workflows this Worker runs, and the versions the tenant's runs were compiled to. */
export const catalogRoutes = new OpenAPIHono<ApiEnv>();
catalogRoutes.use("/workflows", requireTenant());
catalogRoutes.use("/versions/*", requireTenant());

const Workflow = z
  .object({
    id: z.string(),
    description: z.string(),
    definitionHash: z.string(),
    inputSchema: z.unknown(),
    requestedOutput: z.unknown(),
    modelSlots: z.array(z.object({ id: z.string(), providerId: z.string(), modelId: z.string(), description: z.string() })),
    tools: z.array(z.object({ id: z.string(), description: z.string(), descriptorHash: z.string() })),
    placement: z.object({ jurisdiction: z.string().optional() }),
  })
  .openapi("Workflow");

catalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/workflows",
    summary: "The workflows this Worker runs, each with its definition hash",
    responses: { 200: json(z.object({ workflows: z.array(Workflow) }), "Workflows"), ...commonErrors },
  }),
  async (c) => {
    const { services } = c.var;
    const ids = services.workflows.ids();
    const workflows = await Promise.all(
      ids.map(async (id) => {
        const caps = await capabilitiesOf(services.workflows.get(id) as NonNullable<ReturnType<typeof services.workflows.get>>);
        const s = caps.snapshot;
        return {
          id: s.id,
          description: s.description,
          definitionHash: caps.definitionHash,
          inputSchema: caps.inputSchema,
          requestedOutput: caps.requestedOutput,
          modelSlots: [...s.modelSlots],
          tools: s.tools.map((t) => ({ id: t.id, description: t.description, descriptorHash: t.descriptorHash })),
          placement: s.placement,
        };
      }),
    );
    return c.json({ workflows }, 200);
  },
);

const Version = z
  .object({
    version: z.object({ id: z.string(), hash: z.string(), canonicalizer: z.string(), lwir: z.unknown() }),
    locks: z.array(z.object({ lockHash: z.string(), definitionHash: z.string(), lock: z.unknown() })),
  })
  .openapi("WorkflowVersion");

catalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/versions/{versionId}",
    summary: "A WorkflowVersion with its LWIR and locks",
    description: "Versions are content-addressed and shared; a tenant sees a version only when one of its runs was compiled to it.",
    request: { params: z.object({ versionId: z.string() }) },
    responses: { 200: json(Version, "The version"), ...commonErrors },
  }),
  async (c) => {
    const { versionId } = c.req.valid("param");
    const { services } = c.var;
    if (!(await services.runs.tenantUsesVersion(c.var.tenant, versionId))) throw notFound("version", versionId);
    const version = await services.versions.getVersion(versionId);
    if (!version) throw notFound("version", versionId);
    const locks = await services.versions.locksOf(versionId);
    return c.json(
      { version: { id: version.id, hash: version.hash, canonicalizer: version.canonicalizer, lwir: version.lwir }, locks },
      200,
    );
  },
);
