/**
 * @module The {@link FlowLimiters} port over Durable Object RPC: one limiter object per (tenant,
 * workflow, gate, key), named by {@link limiterName}, and the run objects it wakes and checks on.
 */
import { directoryName, type FlowLimiterRpc, type FlowLimiters, type FlowTicket, limiterName } from "../../ports/flow-limiter.ts";
import { type ModelLimiterRpc, type ModelLimiters, modelLimiterName } from "../../ports/model-limiter.ts";
import type { FlowRunHandle } from "../../ports/run-handle.ts";
import { runObjectStub } from "./run-client.ts";

type Branded = Rpc.DurableObjectBranded | undefined;

/** A limiter object's stub, typed by the port (the class lives above the adapters). */
function limiter<T extends Branded>(namespace: DurableObjectNamespace<T>, name: string): FlowLimiterRpc {
  return namespace.get(namespace.idFromName(name)) as unknown as FlowLimiterRpc;
}

/**
 * Every (tenant, workflow, gate, key)'s limiter, through the `FLOW` namespace. A Worker without
 * the binding serves workflows without flow control as before; one with flow control fails its
 * start with a message naming the binding.
 */
export function flowLimiters<T extends Branded>(namespace: DurableObjectNamespace<T> | undefined): FlowLimiters {
  if (!namespace) return missingBinding;
  return {
    acquire: (ticket, gate, leaseMs) => limiter(namespace, limiterName(ticket, gate)).acquire(ticket, gate, leaseMs),
    release: (ticket, gate) => limiter(namespace, limiterName(ticket, gate)).release(ticket, gate),
    position: (ticket, gate) => limiter(namespace, limiterName(ticket, gate)).position(ticket.runId),
    queues: (tenant, workflowId) => limiter(namespace, directoryName(tenant, workflowId)).list(),
  };
}

/** Every (tenant, provider, model)'s shared limits, through the same `FLOW` namespace; none without it. */
export function modelLimiters<T extends Branded>(namespace: DurableObjectNamespace<T> | undefined): ModelLimiters | undefined {
  if (!namespace) return undefined;
  const stub = (name: string) => namespace.get(namespace.idFromName(name)) as unknown as ModelLimiterRpc;
  return {
    acquire: (ticket, limits, leaseMs) => stub(modelLimiterName(ticket)).modelAcquire(ticket.callKey, limits, leaseMs),
    release: (ticket, tokens) => stub(modelLimiterName(ticket)).modelRelease(ticket.callKey, tokens),
    pause: (ticket, until) => stub(modelLimiterName(ticket)).modelPause(until),
  };
}

/** What a limiter asks of the run objects: wake an admitted run, check on one whose lease ran out. */
export type FlowRunHandles = { open(ticket: FlowTicket): FlowRunHandle };

/** The run objects as a limiter reaches them (the `RUNS` namespace). */
export function flowRunHandles<T extends Branded>(runs: DurableObjectNamespace<T>): FlowRunHandles {
  return {
    open: (ticket) => runObjectStub(runs, ticket.tenant, ticket.runId, ticket.placement ?? {}) as unknown as FlowRunHandle,
  };
}

function noBinding(): never {
  throw new Error(
    'This Worker has no "FLOW" Durable Object binding (class FlowLimiterObject), which workflows with concurrency or throttle need: add it and its migration (docs/flow-control.md)',
  );
}

let warnedTenantGates = false;

/**
 * Without the binding a workflow's own flow control fails its run (it was asked for); the tenant's
 * start quotas, which every run carries, are let through with a warning instead, so a Worker
 * configured before they moved to the `FLOW` objects keeps running its runs (unlimited).
 */
const missingBinding: FlowLimiters = {
  acquire: async (_ticket, gate) => {
    if (gate.scope !== "tenant") return noBinding();
    if (!warnedTenantGates) {
      warnedTenantGates = true;
      console.warn(
        'This Worker has no "FLOW" Durable Object binding (class FlowLimiterObject): the tenant start quotas (LITTLE_QUOTA_STARTS_PER_MINUTE, LITTLE_QUOTA_CONCURRENT_RUNS) are not enforced (docs/flow-control.md)',
      );
    }
    return { admitted: true, at: Date.now() };
  },
  release: async (_ticket, gate) => (gate.scope === "tenant" ? undefined : noBinding()),
  position: async (_ticket, gate) => (gate.scope === "tenant" ? null : noBinding()),
  queues: async () => [],
};
