/**
 * @module A run at its flow-control gates (docs/flow-control.md): admitted before it is driven,
 * queued (FlowQueued, `waiting` with `waitReason` `concurrency` or `throttle`) while a gate is
 * full, its slots given back when it ends.
 */
import type { Clock } from "../../ports/clock.ts";
import type { EventLog } from "../../ports/event-log.ts";
import { type FlowGate, type FlowLimiters, type FlowTicket, flowGateId } from "../../ports/flow-limiter.ts";
import type { NewRunEvent, RunEvent } from "../../ports/run-events.ts";
import type { RunIndex } from "../../ports/run-index.ts";
import type { RunHostPorts } from "../run-host/host-ports.ts";
import { indexRun, latestRegistration } from "../run-host/index-run.ts";
import type { RunState } from "../run-state.ts";
import type { HeldSlots } from "./held-slots.ts";

/** What passing the gates works over: the run's log and index row, and the limiters. */
export type FlowPorts = {
  readonly runId: string;
  readonly log: EventLog;
  readonly runs: RunIndex;
  readonly clock: Clock;
  readonly flow: FlowLimiters;
  /** How long a held slot lasts without a renewal before its limiter checks on the run. */
  readonly flowLeaseMs: number;
  /** What the host last heard from the limiters, when it keeps that between calls (held-slots.ts). */
  readonly held?: HeldSlots;
};

/** The flow ports of a run host's run: its log, index and clock, the wiring's limiters, the host's memory of its slots. */
export function flowPortsOf(
  host: Pick<RunHostPorts, "runId" | "log" | "runs" | "clock">,
  wiring: { readonly flow: FlowLimiters; readonly flowLeaseMs: number },
  held?: HeldSlots,
): FlowPorts {
  const { runId, log, runs, clock } = host;
  return { runId, log, runs, clock, flow: wiring.flow, flowLeaseMs: wiring.flowLeaseMs, ...(held ? { held } : {}) };
}

/** Where the run stands at its gates: through all of them, or queued at one. */
export type FlowOutcome = { readonly admitted: true } | { readonly admitted: false; readonly gate: FlowGate; readonly position: number };

/** The run's ticket at its limiters: who it is and where its object lives. */
export function flowTicket(runId: string, request: NonNullable<RunState["request"]>): FlowTicket {
  return {
    tenant: request.tenant,
    workflowId: request.workflowId,
    runId,
    ...(request.placement ? { placement: request.placement } : {}),
  };
}

/** Whether the run has gates to pass (its request recorded any); `workflowOnly`: gates of the workflow's own flow control. */
export function hasFlowGates(
  state: { readonly request?: { readonly flow?: readonly FlowGate[] } | null },
  options: { workflowOnly?: boolean } = {},
): boolean {
  const gates = state.request?.flow ?? [];
  return options.workflowOnly ? gates.some((g) => g.scope !== "tenant") : gates.length > 0;
}

/**
 * The start's ask of the workflow's own gates, in order, until one queues (the tenant's gates come
 * last and are the alarm's). A gate that admits costs the ack its RPC and no write: the run's first
 * slice asks again (asking is idempotent per run id; the slot and its admission time are the
 * limiter's) and records `FlowAdmitted` then. A gate that queues is recorded (`FlowQueued`), so the
 * answer and the index row show the run waiting with its place. A limiter that cannot be reached
 * fails nothing: the run is durable and its alarm, armed with the request, asks again.
 * Returns what it appended (the answer is built from the start's events and these).
 */
export async function askGatesAtStart(
  ports: Pick<FlowPorts, "runId" | "log" | "flow" | "flowLeaseMs" | "clock" | "held">,
  started: readonly RunEvent[],
): Promise<readonly RunEvent[]> {
  const requested = started[0];
  if (requested?.type !== "RunRequested") return [];
  const ticket = flowTicket(ports.runId, requested.payload);
  try {
    for (const gate of requested.payload.flow ?? []) {
      if (gate.scope === "tenant") break;
      const askedAt = ports.clock.now();
      const answer = await ports.flow.acquire(ticket, gate, ports.flowLeaseMs);
      // Kept for the first slice, which records the admission without asking again.
      if (answer.admitted) {
        ports.held?.admitted(flowGateId(gate, gate.index), askedAt, answer.at);
        continue;
      }
      return await ports.log.append([
        { type: "FlowQueued", payload: { kind: gate.kind, gate: gate.index, key: gate.key, position: answer.position } },
      ]);
    }
  } catch (error) {
    console.error(
      `run ${ports.runId}: flow-control admission deferred to the alarm: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return [];
}

/**
 * Passes the run's gates in order. A concurrency gate is asked again (that renews the held slot's
 * lease) unless this host heard it admit the run less than half a lease ago (held-slots.ts); a
 * throttle that admitted the run once is not asked again (a start is counted once). What each
 * answered that the log does not say yet is appended, in one batch: `FlowAdmitted` for each gate
 * newly passed, and `FlowQueued` (and the index row `waiting`) for the gate the run now waits at.
 * A run that was queued and is now through every gate is indexed `running` again.
 */
export async function passFlowGates(ports: FlowPorts, state: RunState): Promise<FlowOutcome> {
  const request = state.request;
  if (!request?.flow?.length || state.terminal) return { admitted: true };
  const ticket = flowTicket(ports.runId, request);
  const passedNow: NewRunEvent[] = [];
  for (const gate of request.flow) {
    const gateId = flowGateId(gate, gate.index);
    const passed = state.flow?.admitted.includes(gateId) ?? false;
    if (passed && gate.kind === "throttle") continue;
    const askedAt = ports.clock.now();
    const held = ports.held?.fresh(gateId, askedAt, ports.flowLeaseMs);
    const answer = held ? { admitted: true as const, at: held.admittedAt } : await ports.flow.acquire(ticket, gate, ports.flowLeaseMs);
    if (answer.admitted) {
      if (!held) ports.held?.admitted(gateId, askedAt, answer.at);
      if (!passed)
        passedNow.push({
          type: "FlowAdmitted",
          payload: { kind: gate.kind, gate: gate.index, key: gate.key, admittedAt: answer.at, ...scopeOf(gate) },
        });
      continue;
    }
    ports.held?.forget();
    const queued = state.flow?.queued;
    if (!queued || flowGateId(queued, queued.gate) !== flowGateId(gate, gate.index)) {
      await ports.log.append([
        ...passedNow,
        { type: "FlowQueued", payload: { kind: gate.kind, gate: gate.index, key: gate.key, position: answer.position, ...scopeOf(gate) } },
      ]);
      await indexRun(ports, state, "waiting", { ...latestRegistration(state), waitReason: gate.kind });
    } else if (passedNow.length > 0) await ports.log.append(passedNow);
    return { admitted: false, gate, position: answer.position };
  }
  if (passedNow.length > 0) await ports.log.append(passedNow);
  if (state.flow?.queued) await indexRun(ports, state, "running", latestRegistration(state));
  return { admitted: true };
}

/**
 * Gives back what the run holds at its gates once it has ended (completed, failed, cancelled,
 * timed out): each concurrency slot, and its place in the queue it waited in. Gates after the
 * one it waited at were never asked. Idempotent, so every end path may call it; a release that
 * is lost is made good by the limiter's lease check.
 */
export async function releaseFlowGates(ports: Pick<FlowPorts, "runId" | "flow" | "held">, state: RunState): Promise<void> {
  const request = state.request;
  if (!request?.flow?.length) return;
  ports.held?.forget();
  const ticket = flowTicket(ports.runId, request);
  const waitingAt = state.flow?.queued;
  const releases: Promise<void>[] = [];
  for (const gate of request.flow) {
    const isWaitingGate =
      waitingAt !== null && waitingAt !== undefined && flowGateId(waitingAt, waitingAt.gate) === flowGateId(gate, gate.index);
    if (gate.kind === "concurrency" || isWaitingGate) releases.push(ports.flow.release(ticket, gate));
    if (isWaitingGate) break;
  }
  await Promise.all(releases);
}

/** The position the run waits at, asked of its limiter (the fold's is as of its FlowQueued). */
export async function flowPosition(ports: Pick<FlowPorts, "runId" | "flow">, state: RunState): Promise<number | null> {
  const request = state.request;
  const queued = state.flow?.queued;
  if (!request?.flow || !queued || state.terminal) return null;
  const gate = request.flow.find((g) => flowGateId(g, g.index) === flowGateId(queued, queued.gate));
  if (!gate) return null;
  return ports.flow.position(flowTicket(ports.runId, request), gate);
}

/** The gate's scope as its events record it (absent for the workflow's own gates, as before tenant gates existed). */
function scopeOf(gate: FlowGate): { scope?: "tenant" } {
  return gate.scope === "tenant" ? { scope: "tenant" } : {};
}
