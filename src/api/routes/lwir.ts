import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { bindLwir } from "../../lwir/bind-lwir.ts";
import { validateLwir } from "../../lwir/validate-lwir.ts";
import { hasNoErrors } from "../../sdk/finding.ts";
import type { ApiEnv } from "../api-env.ts";
import { notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { ErrorBody, Finding } from "../schemas.ts";
import { capabilitiesOf } from "../workflow-capabilities.ts";

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { "application/json": { schema } }, description });

export const lwirRoutes = new OpenAPIHono<ApiEnv>();
lwirRoutes.use("/lwir/*", requireTenant());

lwirRoutes.openapi(
  createRoute({
    method: "post",
    path: "/lwir/validate",
    summary: "Validate an LWIR document",
    description:
      "Structural validation; with `?workflow=<id>` also the binding pass against that workflow's definition. Always 200 with `{ valid, findings }` for a JSON body.",
    request: {
      query: z.object({ workflow: z.string().optional() }),
      body: { content: { "application/json": { schema: z.unknown().openapi({ description: "An LWIR document" }) } }, required: true },
    },
    responses: {
      200: json(z.object({ valid: z.boolean(), findings: z.array(Finding) }), "The findings"),
      400: json(ErrorBody, "Not JSON"),
      404: json(ErrorBody, "Unknown workflow"),
    },
  }),
  async (c) => {
    const lwir = c.req.valid("json");
    const { workflow } = c.req.valid("query");
    const structural = validateLwir(lwir);
    let findings = [...structural.findings];
    if (workflow) {
      const registered = c.var.services.workflows.get(workflow);
      if (!registered) throw notFound("workflow", workflow);
      if (structural.valid) findings = [...findings, ...bindLwir(lwir, await capabilitiesOf(registered))];
    }
    return c.json({ valid: hasNoErrors(findings), findings }, 200);
  },
);
