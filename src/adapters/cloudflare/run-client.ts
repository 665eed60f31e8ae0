import type { DecisionResult, RunObject, RunView, StartRunRequest, TriggerResult } from "../../../durable-objects/run.ts";
import type { RunEvent, RunTrigger } from "../../ports/run-events.ts";
import type { RunPlacement } from "../../ports/run-index.ts";

/**
 * A typed client for one run object. Durable Object RPC types cannot express `unknown` payloads
 * (they collapse to `never`), so the results are typed here once, for every caller.
 */
export type RunClient = {
  start(request: StartRunRequest): Promise<RunView & { created: boolean }>;
  status(): Promise<RunView>;
  events(options?: { after?: number; limit?: number; types?: string[] }): Promise<RunEvent[]>;
  stream(after: number): Promise<ReadableStream<Uint8Array>>;
  cancel(reason?: string): Promise<RunView>;
  trigger(request: { input: unknown; trigger: RunTrigger }): Promise<TriggerResult>;
  decideApproval(request: {
    approvalId: string;
    decision: "approved" | "denied";
    argsHash: string;
    reason?: string;
  }): Promise<DecisionResult>;
  waitForEnd(timeoutMs: number): Promise<RunView>;
};

/**
 * The run object for `(tenant, runId)`: one object per run, named `<tenant>:<runId>` so two
 * tenants choosing the same run id never share an object. A run with a jurisdiction lives in that
 * jurisdiction's namespace; workerd does not implement jurisdictions, so locally (where
 * `jurisdiction()` throws) the plain namespace is used.
 */
export function runObjectStub(
  namespace: DurableObjectNamespace<RunObject>,
  tenant: string,
  runId: string,
  placement: RunPlacement = {},
): DurableObjectStub<RunObject> {
  const scoped = placement.jurisdiction ? inJurisdiction(namespace, placement.jurisdiction) : namespace;
  const id = scoped.idFromName(`${tenant}:${runId}`);
  return placement.locationHint ? scoped.get(id, { locationHint: placement.locationHint as DurableObjectLocationHint }) : scoped.get(id);
}

/** Whether this runtime enforces jurisdictions (false under workerd, i.e. wrangler dev and tests). */
export function jurisdictionsEnforced(namespace: DurableObjectNamespace<RunObject>): boolean {
  try {
    namespace.jurisdiction("eu");
    return true;
  } catch {
    return false;
  }
}

function inJurisdiction(namespace: DurableObjectNamespace<RunObject>, jurisdiction: string): DurableObjectNamespace<RunObject> {
  try {
    return namespace.jurisdiction(jurisdiction as DurableObjectJurisdiction);
  } catch {
    return namespace;
  }
}

/** The client for one run. */
export function runClient(
  namespace: DurableObjectNamespace<RunObject>,
  tenant: string,
  runId: string,
  placement: RunPlacement = {},
): RunClient {
  const stub = runObjectStub(namespace, tenant, runId, placement) as unknown as RunClient;
  return {
    start: (request) => stub.start(request),
    status: () => stub.status(),
    events: (options) => stub.events(options),
    stream: (after) => stub.stream(after),
    cancel: (reason) => stub.cancel(reason),
    waitForEnd: (timeoutMs) => stub.waitForEnd(timeoutMs),
    trigger: (request) => stub.trigger(request),
    decideApproval: (request) => stub.decideApproval(request),
  };
}
