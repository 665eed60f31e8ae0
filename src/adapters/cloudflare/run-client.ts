import type { RunObject, RunView, StartRunRequest } from "../../../durable-objects/run.ts";
import type { RunEvent, RunEventType } from "../../ports/run-events.ts";

/**
 * A typed client for one run object. Durable Object RPC types cannot express `unknown` payloads
 * (they collapse to `never`), so the results are typed here once, for every caller.
 */
export type RunClient = {
  start(request: StartRunRequest): Promise<RunView & { created: boolean }>;
  status(): Promise<RunView>;
  events(options?: { after?: number; limit?: number; types?: RunEventType[] }): Promise<RunEvent[]>;
  cancel(reason?: string): Promise<RunView>;
  waitForEnd(timeoutMs: number): Promise<RunView>;
};

/** The client for `runId`'s object (one object per run, addressed by name). */
export function runClient(namespace: DurableObjectNamespace<RunObject>, runId: string): RunClient {
  const stub = namespace.get(namespace.idFromName(runId)) as unknown as RunClient;
  return {
    start: (request) => stub.start(request),
    status: () => stub.status(),
    events: (options) => stub.events(options),
    cancel: (reason) => stub.cancel(reason),
    waitForEnd: (timeoutMs) => stub.waitForEnd(timeoutMs),
  };
}
