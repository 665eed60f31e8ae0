import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { commonErrors, json } from "../schemas.ts";

/** Flow control's queues: a workflow's keys with their running and queued counts (docs/flow-control.md). */
export const queueRoutes = new OpenAPIHono<ApiEnv>();
queueRoutes.use("/workflows/*", requireTenant());

const FlowQueue = z
  .object({
    kind: z.enum(["concurrency", "throttle"]),
    index: z.number().int().openapi({ description: "The limit's place in the definition's `concurrency` list (0 for the throttle)" }),
    key: z.string().openapi({ description: "The key's value (`*` for a limit without a key)" }),
    limit: z.number().int(),
    periodMs: z.number().int().optional().openapi({ description: "A throttle's window" }),
    running: z.number().int().openapi({ description: "Runs holding a slot (concurrency), or started in the current window (throttle)" }),
    queued: z.number().int(),
    updatedAt: z.number().openapi({ description: "When the key's limiter last changed (epoch ms)" }),
  })
  .openapi("FlowQueue");

queueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/workflows/{workflowId}/queues",
    operationId: "listWorkflowQueues",
    tags: ["workflows"],
    summary: "A workflow's flow-control keys with their running and queued runs",
    description:
      "Each key the tenant's runs of this workflow used, per limit (`concurrency`, `throttle`), with how many runs hold a slot or started in the window and how many wait. Counts come from each key's limiter as of its last change; a key whose queue drained stays listed with zero counts.",
    request: { params: z.object({ workflowId: z.string() }) },
    responses: { 200: json(z.object({ queues: z.array(FlowQueue) }), "The workflow's keys"), ...commonErrors },
  }),
  async (c) => {
    const { workflowId } = c.req.valid("param");
    const { services } = c.var;
    if (!services.workflows.get(workflowId)) throw notFound("workflow", workflowId);
    const queues = await services.flow.queues(c.var.tenant, workflowId);
    return c.json({ queues: queues.map((q) => ({ ...q })) }, 200);
  },
);
