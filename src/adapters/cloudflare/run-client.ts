import type { RunHandle, RunHandles } from "../../ports/run-handle.ts";
import type { RunPlacement } from "../../ports/run-index.ts";
import type { RunObjectRpc } from "../../ports/run-object-rpc.ts";
import { accepted, purged } from "../../ports/run-refusal.ts";

/** The run objects' namespace (`RUNS`, or the bench Worker's), whatever class it is typed with. */
type RunNamespace<T extends Rpc.DurableObjectBranded | undefined> = DurableObjectNamespace<T>;
type Branded = Rpc.DurableObjectBranded | undefined;

/**
 * The run object for `(tenant, runId)`: one object per run, named `<tenant>:<runId>` so two
 * tenants choosing the same run id never share an object. A run with a jurisdiction lives in that
 * jurisdiction's namespace; workerd does not implement jurisdictions, so locally (where
 * `jurisdiction()` throws) the plain namespace is used.
 */
export function runObjectStub<T extends Branded>(namespace: RunNamespace<T>, tenant: string, runId: string, placement: RunPlacement = {}) {
  const scoped = placement.jurisdiction ? inJurisdiction(namespace, placement.jurisdiction) : namespace;
  const id = scoped.idFromName(`${tenant}:${runId}`);
  return placement.locationHint ? scoped.get(id, { locationHint: placement.locationHint as DurableObjectLocationHint }) : scoped.get(id);
}

/** Whether this runtime enforces jurisdictions (false under workerd, i.e. wrangler dev and tests). */
export function jurisdictionsEnforced<T extends Branded>(namespace: RunNamespace<T>): boolean {
  try {
    namespace.jurisdiction("eu");
    return true;
  } catch {
    return false;
  }
}

function inJurisdiction<T extends Branded>(namespace: RunNamespace<T>, jurisdiction: string): RunNamespace<T> {
  try {
    return namespace.jurisdiction(jurisdiction as DurableObjectJurisdiction);
  } catch {
    return namespace;
  }
}

/**
 * The {@link RunHandle} of one run: Durable Object RPC to its run object. RPC types cannot
 * express `unknown` payloads (they collapse to `never`), so the results are typed by the port.
 * The object answers its refusals as data (RPC keeps no error class); here each becomes its named
 * error (ports/run-refusal.ts).
 */
export function runClient<T extends Branded>(
  namespace: RunNamespace<T>,
  tenant: string,
  runId: string,
  placement: RunPlacement = {},
): RunHandle {
  const stub = runObjectStub(namespace, tenant, runId, placement) as unknown as RunObjectRpc;
  return {
    start: (request) => stub.start(request),
    status: () => stub.status(),
    events: (options) => stub.events(options),
    stream: (after, options) => stub.stream(after, options),
    cancel: (reason) => stub.cancel(reason),
    pause: async (request) => accepted(await stub.pause(request), runId),
    resume: async (request) => accepted(await stub.resume(request), runId),
    waitForEnd: (timeoutMs) => stub.waitForEnd(timeoutMs),
    trigger: async (request) => accepted(await stub.trigger(request), runId),
    decideApproval: async (request) => accepted(await stub.decideApproval(request), runId),
    end: async (request) => accepted(await stub.end(request), runId),
    sendSignal: async (request) => accepted(await stub.sendSignal(request), runId),
    childEnded: async (request) => accepted(await stub.childEnded(request), runId),
    purge: async (deletedAt) => purged(await stub.purge(deletedAt), runId),
  };
}

/** Every run's handle, through the run objects' namespace. */
export function runClients<T extends Branded>(namespace: RunNamespace<T>): RunHandles {
  return {
    open: (tenant, runId, placement) => runClient(namespace, tenant, runId, placement),
    jurisdictionsEnforced: () => jurisdictionsEnforced(namespace),
  };
}
