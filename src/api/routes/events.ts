import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { listTenantEvents } from "../run-operations.ts";
import { runStreamResponse } from "../run-stream-response.ts";
import { json, RunEventSchema, runErrors } from "../schemas.ts";

export const eventRoutes = new OpenAPIHono<ApiEnv>();
eventRoutes.use("/runs/*", requireTenant());

const pageRoute = createRoute({
  method: "get",
  path: "/runs/{runId}/events",
  operationId: "listRunEvents",
  tags: ["events"],
  summary: "A page of a run's events",
  description:
    "Events with `seq > after`, at most `limit`. `type` filters by comma-separated event types; an entry ending in `*` matches a prefix (`harness.*`). An entry that names no event type is 400 `event_type_unknown`.",
  request: {
    params: z.object({ runId: z.string() }),
    query: z.object({
      after: z.coerce.number().int().min(0).optional(),
      limit: z.coerce.number().int().min(1).max(1_000).optional(),
      type: z.string().max(1_000).optional(),
    }),
  },
  responses: {
    200: json(z.object({ events: z.array(RunEventSchema), nextAfter: z.number().nullable() }), "A page of events"),
    ...runErrors,
  },
});

eventRoutes.openapi(pageRoute, async (c) => {
  const { runId } = c.req.valid("param");
  return c.json(await listTenantEvents(c.get("services"), c.get("tenant"), runId, c.req.valid("query")), 200);
});

const streamRoute = createRoute({
  method: "get",
  path: "/runs/{runId}/events/stream",
  operationId: "streamRunEvents",
  tags: ["events"],
  summary: "A run's events as Server-Sent Events, live",
  description:
    "Each message's `id` is the event's `seq`; reconnect with `Last-Event-ID` (or `?after=`) to resume. The stream ends after the run's terminal event.",
  request: { params: z.object({ runId: z.string() }), query: z.object({ after: z.coerce.number().int().min(0).optional() }) },
  responses: { 200: { content: { "text/event-stream": { schema: z.string() } }, description: "The event stream" }, ...runErrors },
});

eventRoutes.openapi(streamRoute, async (c) => {
  const { runId } = c.req.valid("param");
  return (await runStreamResponse(c, runId, c.req.valid("query"), { deltas: false })) as never;
});
