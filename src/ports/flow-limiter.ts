/**
 * @module Flow control's port: the coordination objects that admit runs per key (docs/flow-control.md).
 *
 * One limiter per (tenant, workflow, gate, key): its storage is the key's queue. A run passes its
 * gates in order (each `concurrency` entry, then the `throttle`); every gate is a call to that
 * key's limiter, and the engine keeps what each answered in the run's log (`FlowQueued`,
 * `FlowAdmitted`). In the Worker this is Durable Object RPC (`src/adapters/cloudflare/flow-limiters.ts`).
 */

import type { z } from "zod";
import type { FlowGateKindSchema, FlowGateSchema } from "./events/common-schemas.ts";

/** Which limit a gate enforces. */
export type FlowGateKind = z.infer<typeof FlowGateKindSchema>;

/**
 * One gate of a run, as its start computed it and `RunRequested.flow` records it (its schema, with
 * the fields' meaning, is in events/common-schemas.ts: it is part of the event union).
 */
export type FlowGate = Readonly<z.infer<typeof FlowGateSchema>>;

/** Who asks: enough for the limiter to address the run's object again when it admits it. */
export type FlowTicket = {
  readonly tenant: string;
  readonly workflowId: string;
  readonly runId: string;
  /** The run's placement (`RunPlacement`, spelled out: the event union imports this file). */
  readonly placement?: { readonly jurisdiction?: string; readonly locationHint?: string };
};

/**
 * What a gate answered: the run holds a slot (or took a throttle start) since `at` (the limiter's
 * clock), or waits at `position` (1 = next).
 */
export type FlowAnswer = { readonly admitted: true; readonly at: number } | { readonly admitted: false; readonly position: number };

/** One key of a workflow's flow control, as `GET /v1/workflows/{id}/queues` lists it. */
export type FlowQueueView = {
  readonly kind: FlowGateKind;
  readonly index: number;
  readonly key: string;
  readonly limit: number;
  readonly periodMs?: number;
  /** Runs holding a slot (concurrency) or started in the current window (throttle). */
  readonly running: number;
  readonly queued: number;
  readonly updatedAt: number;
};

/** The limiters of every (tenant, workflow, gate, key). */
export interface FlowLimiters {
  /**
   * Takes a slot for the run, or queues it (idempotent per run id: asking again renews a held
   * slot's lease, or answers the run's place in the queue). `leaseMs`: how long a slot is held
   * without being asked again before the limiter checks on the run.
   */
  acquire(ticket: FlowTicket, gate: FlowGate, leaseMs: number): Promise<FlowAnswer>;
  /** Gives the run's slot back, or takes it out of the queue (its end, a cancel). Idempotent. */
  release(ticket: FlowTicket, gate: FlowGate): Promise<void>;
  /** The run's place in the key's queue; null when it is not queued there. */
  position(ticket: FlowTicket, gate: FlowGate): Promise<number | null>;
  /** Every key of the workflow the tenant's runs used, with its running and queued counts. */
  queues(tenant: string, workflowId: string): Promise<FlowQueueView[]>;
}

/** How a run object answers its limiter checking on a slot whose lease ran out. */
export type FlowProbe = "ended" | "active" | "idle";

/**
 * The RPC surface of one limiter object (`durable-objects/flow-limiter.ts`), as the adapter calls
 * it. The same class keeps a workflow's directory of keys (`report`, `list`) under its own name.
 */
export interface FlowLimiterRpc {
  acquire(ticket: FlowTicket, gate: FlowGate, leaseMs: number): Promise<FlowAnswer>;
  release(ticket: FlowTicket, gate: FlowGate): Promise<void>;
  position(runId: string): Promise<number | null>;
  /** `version`: the limiter's count of reports; a row takes only a later one (reports may arrive out of order). */
  report(name: string, view: FlowQueueView, version: number): Promise<void>;
  list(): Promise<FlowQueueView[]>;
}

/** The name of the limiter object of one (tenant, workflow, gate, key), or of one of the tenant's start quotas. */
export function limiterName(
  ticket: Pick<FlowTicket, "tenant" | "workflowId">,
  gate: Pick<FlowGate, "kind" | "index" | "key" | "scope">,
): string {
  if (gate.scope === "tenant") return JSON.stringify(["tenant-quota", ticket.tenant, gate.kind]);
  return JSON.stringify(["limiter", ticket.tenant, ticket.workflowId, gate.kind, gate.index, gate.key]);
}

/** A gate's id in a run's log and fold (`FlowQueued`, `FlowAdmitted`): its kind and place (`index`), and its scope when it is the tenant's. */
export function flowGateId(gate: { readonly kind: FlowGateKind; readonly scope?: "tenant" | undefined }, place: number): string {
  return gate.scope === "tenant" ? `tenant:${gate.kind}:${place}` : `${gate.kind}:${place}`;
}

/** The name of the object holding a workflow's directory of keys (for `GET /v1/workflows/{id}/queues`). */
export function directoryName(tenant: string, workflowId: string): string {
  return JSON.stringify(["queues", tenant, workflowId]);
}
