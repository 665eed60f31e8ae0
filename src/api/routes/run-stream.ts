/**
 * @module `GET /v1/runs/{runId}/stream` (`streamRun`): the run's events, as the events stream has
 * them, plus the live model output of its calls in flight (docs/observability.md, "Live model output").
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { runStreamResponse } from "../run-stream-response.ts";
import { runErrors } from "../schemas.ts";

export const runStreamRoutes = new OpenAPIHono<ApiEnv>();
runStreamRoutes.use("/runs/*", requireTenant());

const route = createRoute({
  method: "get",
  path: "/runs/{runId}/stream",
  operationId: "streamRun",
  tags: ["events"],
  summary: "A run's events and its models' output as it is written, as Server-Sent Events",
  description: [
    "The events of `GET /v1/runs/{runId}/events/stream` (each message's `id` is the event's `seq`; reconnect with `Last-Event-ID` or `?after=` to resume; the stream ends after the terminal event),",
    "plus `event: delta` messages while an `ai.generate` step, a fixer or the planner has a model call in flight:",
    "`{ runId?, sessionId, callId, call, role, stepPath, channel, offset, text, partial? }`.",
    "`channel` is `text`, `reasoning` or `tool-input`; `offset` is where `text` starts in the channel's text so far (keep `whole = whole.slice(0, offset) + text`);",
    "`partial` is the object parsed from a structured answer's text so far. A delta has no `id`:",
    "a client that connects (or resumes) while a call is in flight first gets its text so far at offset 0.",
    "Deltas are not journaled: the call's `harness.model.responded` event carries the whole answer.",
  ].join(" "),
  request: { params: z.object({ runId: z.string() }), query: z.object({ after: z.coerce.number().int().min(0).optional() }) },
  responses: {
    200: { content: { "text/event-stream": { schema: z.string() } }, description: "The run's events and model deltas" },
    ...runErrors,
  },
});

runStreamRoutes.openapi(route, async (c) => {
  const { runId } = c.req.valid("param");
  return (await runStreamResponse(c, runId, c.req.valid("query"), { deltas: true })) as never;
});
