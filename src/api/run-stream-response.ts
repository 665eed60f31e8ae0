import type { Context } from "hono";
import { findTenantRun } from "../engine/runs/find-tenant-run.ts";
import type { ApiEnv } from "./api-env.ts";

/**
 * A run's SSE stream as the response of `GET /v1/runs/:id/events/stream` (events) and
 * `GET /v1/runs/:id/stream` (events and live model output): resumed after `Last-Event-ID`, else
 * after `?after=`, else from the first event.
 */
export async function runStreamResponse(
  c: Context<ApiEnv>,
  runId: string,
  query: { readonly after?: number | undefined },
  options: { readonly deltas: boolean },
): Promise<Response> {
  const lastEventId = Number(c.req.header("last-event-id"));
  const after = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : (query.after ?? 0);
  const { client } = await findTenantRun(c.get("services"), c.get("tenant"), runId);
  const stream = await client.stream(after, options.deltas ? { deltas: true } : {});
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" },
  });
}
