/**
 * @module The tenant's start quotas as flow-control gates (docs/api.md, "Quotas"; docs/runs.md,
 * "Where a start waits"). A start is acknowledged once its run is durable in its own object; the
 * quotas are enforced after that, by the run itself, before it does any work: its alarm passes
 * these gates after the workflow's own (admit-flow.ts), at one tenant-wide limiter object per
 * quota. A run over a quota is not refused: it waits (`waiting`, `waitReason` `throttle` or
 * `concurrency`, `queue.scope` `tenant`) and starts when the quota has room, first come first
 * served.
 */
import type { FlowGate } from "../../ports/flow-limiter.ts";
import { START_WINDOW_MS, type StartLimits } from "../../ports/start-quota.ts";

/** The key of a tenant gate: one queue per tenant and quota. */
const TENANT_KEY = "*";

/**
 * The tenant's gates, in the order a run passes them: the starts-per-minute throttle (a start is
 * counted once, when it is let through), then the concurrent-runs slot it holds until it ends. In
 * that order a run waiting for a slot holds no start of the window's, and a run waiting for the
 * window holds no slot. They come after the workflow's own gates, so a run queued behind its
 * workflow's key holds no tenant slot that other workflows' runs could use.
 */
export function tenantGates(limits: StartLimits): FlowGate[] {
  return [
    { kind: "throttle", index: 0, key: TENANT_KEY, limit: limits.startsPerMinute, periodMs: START_WINDOW_MS, scope: "tenant" },
    { kind: "concurrency", index: 0, key: TENANT_KEY, limit: limits.concurrentRuns, scope: "tenant" },
  ];
}
