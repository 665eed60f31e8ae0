/**
 * `little-workflow/client`: a typed client of the /v1 API for Node, browsers and Workers (fetch
 * only, no platform imports). Types come from the API's own OpenAPI document. See docs/client.md.
 *
 * @example
 * import { createClient, LittleClientError } from "little-workflow/client";
 *
 * const client = createClient({ baseUrl: "http://localhost:8787", token: "dev-token" });
 * const { run } = await client.startRun("support.summarize-ticket", { ticketId: "T-1", transcript: "…" });
 * for await (const event of client.events(run.runId)) {
 *   if (event.type === "RunCompleted") console.log(event.payload.output);
 * }
 */

export type { LiveModelCall, ModelDelta, ModelDeltaChannel } from "../ports/live-output.ts";
export {
  ENDED_STATUSES,
  isEndedStatus,
  isSettledStatus,
  RUN_STATUSES,
  type RunStatus,
  WAIT_REASONS,
  type WaitReason,
} from "../ports/run-status.ts";
export type * from "./api-types.ts";
export { type ClientErrorBody, LittleClientError } from "./client-error.ts";
export type { EventStreamOptions, RunStreamItem } from "./event-stream.ts";
export { type ClientOptions, createClient, LittleClient, type StartOptions, type TriggerOptions } from "./little-client.ts";
export type { CallOptions, FetchLike } from "./transport.ts";
