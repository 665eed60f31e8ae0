/**
 * @module Shared model limits' port (docs/flow-control.md, "Model limits"): one limiter per
 * (tenant, provider, model), shared by every run of every workflow of the tenant calling it.
 */
import type { ModelLimits } from "../sdk/model.ts";

/** One live model call at its model's limiter. `callKey` is unique per attempt. */
export type ModelCallTicket = { readonly tenant: string; readonly providerId: string; readonly modelId: string; readonly callKey: string };

/** May the call go now, or not before `retryAt` (the limiter's clock)? */
export type ModelPermit = { readonly granted: true } | { readonly granted: false; readonly retryAt: number };

/** The limiters of every (tenant, provider, model). */
export interface ModelLimiters {
  /** Takes a place for the call under `limits`; idempotent per call key. `leaseMs`: how long an unreleased call counts in flight. */
  acquire(ticket: ModelCallTicket, limits: ModelLimits, leaseMs: number): Promise<ModelPermit>;
  /** The call ended: it no longer counts in flight; its `tokens` count toward `tokensPerMinute`. */
  release(ticket: ModelCallTicket, tokens: number): Promise<void>;
  /** The provider refused with `Retry-After`: no call of this model starts before `until`, for any run. */
  pause(ticket: ModelCallTicket, until: number): Promise<void>;
}

/** The RPC surface of a model limiter object (the flow limiter class, under {@link modelLimiterName}). */
export interface ModelLimiterRpc {
  modelAcquire(callKey: string, limits: ModelLimits, leaseMs: number): Promise<ModelPermit>;
  modelRelease(callKey: string, tokens: number): Promise<void>;
  modelPause(until: number): Promise<void>;
}

/** The name of the limiter object of one (tenant, provider, model). */
export function modelLimiterName(ticket: Pick<ModelCallTicket, "tenant" | "providerId" | "modelId">): string {
  return JSON.stringify(["model", ticket.tenant, ticket.providerId, ticket.modelId]);
}
