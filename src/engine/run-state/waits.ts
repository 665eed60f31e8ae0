import type { RunEvent } from "../../ports/run-events.ts";
import { type RunStatus, WAIT_REASONS, type WaitReason } from "../../ports/run-status.ts";
import type { RunState, StepWait } from "./types.ts";

/**
 * Waits, from the events alone, so every reader (the drive loop, the run view, the run index, the
 * CLI, the inspector) reports the same `waiting` and the same reason:
 *
 * - `approval`: `ApprovalRequested` opens it for the step; `ApprovalDecided` for that approval
 *   closes it, and so does anything that moves the step on (an expired approval fails it).
 * - `sleep`: `StepRetried` whose `retryAt` is later than the event opens it; the step's next
 *   `StepStarted` closes it. A retry due at once is no sleep.
 * - `trigger`: a section's occurrence ended and none is queued; `OccurrenceQueued` or
 *   `OccurrenceStarted` closes it.
 * - `sleep` or `signal` from a wait step: its `WaitStarted` opens it until its deadline; the
 *   step's end (`StepSucceeded` when it woke, got its signal or timed out) closes it.
 * - `child`: `ChildRunStarted` opens it for the workflow.run step; `ChildRunEnded` for that child
 *   closes it, and so does anything that moves the step on.
 * - `concurrency` / `throttle`: `FlowQueued` opens it (the run waits in its key's queue);
 *   `FlowAdmitted` closes it (the fold's `flow.queued`, see transitions.ts).
 * - `rate_limit`: `ModelRateLimited` opens it for the step whose model call waits on its model's
 *   shared limiter; `ModelRateLimitLifted` (the call goes) closes it, as does the step's end.
 *
 * A new cycle, an occurrence's start or end, and the run's end close every step's wait: the
 * steps they belonged to will not go on. The run is `waiting` while any wait is open, even when a
 * fan-out's other branches still work: what it needs to finish is the wait's end.
 */

/** How a step event changes the step waits; unchanged (the same map) when it changes nothing. */
function stepWaitsAfter(state: RunState, event: RunEvent): ReadonlyMap<string, StepWait> {
  const waits = state.stepWaits;
  switch (event.type) {
    case "ApprovalRequested": {
      const { stepPath, approvalId, expiresAt } = event.payload;
      return new Map(waits).set(stepPath, { reason: "approval", approvalId, until: expiresAt });
    }
    case "ApprovalDecided": {
      const stepPath = state.approvals.get(event.payload.approvalId)?.stepPath;
      const open = stepPath === undefined ? undefined : waits.get(stepPath);
      return open?.reason === "approval" && open.approvalId === event.payload.approvalId ? without(waits, stepPath as string) : waits;
    }
    case "ChildRunStarted": {
      const { stepPath, childRunId } = event.payload;
      return new Map(waits).set(stepPath, { reason: "child", childRunId, until: null });
    }
    case "ChildRunEnded": {
      const open = waits.get(event.payload.stepPath);
      return open?.reason === "child" && open.childRunId === event.payload.childRunId ? without(waits, event.payload.stepPath) : waits;
    }
    case "StepRetried": {
      const { stepPath, retryAt } = event.payload;
      return retryAt > event.at ? new Map(waits).set(stepPath, { reason: "sleep", until: retryAt }) : without(waits, stepPath);
    }
    case "WaitStarted": {
      const { stepPath, kind, until, signals } = event.payload;
      const wait: StepWait = kind === "signal" ? { reason: "signal", until, signals: signals ?? [] } : { reason: "sleep", until };
      return new Map(waits).set(stepPath, wait);
    }
    case "ModelRateLimited": {
      const { stepPath, providerId, modelId, until } = event.payload;
      return new Map(waits).set(stepPath, { reason: "rate_limit", providerId, modelId, until });
    }
    case "ModelRateLimitLifted":
      return waits.get(event.payload.stepPath)?.reason === "rate_limit" ? without(waits, event.payload.stepPath) : waits;
    case "StepStarted":
    case "StepSucceeded":
    case "StepFailed":
    case "StepSkipped":
      return without(waits, event.payload.stepPath);
    case "RunStarted":
    case "OuterLoopCycleCompleted":
    case "OccurrenceStarted":
    case "OccurrenceCompleted":
    case "OccurrenceFailed":
    case "RunCompleted":
    case "RunFailed":
    case "RunCancelled":
      return waits.size === 0 ? waits : new Map();
    default:
      return waits;
  }
}

function without(waits: ReadonlyMap<string, StepWait>, stepPath: string): ReadonlyMap<string, StepWait> {
  if (!waits.has(stepPath)) return waits;
  const rest = new Map(waits);
  rest.delete(stepPath);
  return rest;
}

/** Whether a section is idle after this event: it ran every occurrence queued so far. */
function idleAfter(state: RunState, event: RunEvent): boolean {
  switch (event.type) {
    case "OccurrenceCompleted":
    case "OccurrenceFailed":
      return !state.occurrences.some((o) => o.status === "queued" || o.status === "running");
    case "OccurrenceQueued":
    case "OccurrenceStarted":
      return false;
    default:
      return state.idle;
  }
}

/** The reason a run with these waits reports: the first of WAIT_REASONS that applies (a flow-control queue among them). */
function reasonOf(stepWaits: ReadonlyMap<string, StepWait>, idle: boolean, flow: RunState["flow"]): WaitReason | null {
  const open = new Set<WaitReason>();
  for (const wait of stepWaits.values()) open.add(wait.reason);
  if (idle) open.add("trigger");
  if (flow?.queued) open.add(flow.queued.kind);
  return WAIT_REASONS.find((reason) => open.has(reason)) ?? null;
}

/**
 * Applies an event's effect on the run's waits to the state its transition gave: the open step
 * waits, whether a section is idle, the wait reason, and the status (`waiting` while a wait is
 * open; `running` again once the last one closes). An ended run waits for nothing.
 */
export function settleWaits(state: RunState, event: RunEvent): RunState {
  const stepWaits = stepWaitsAfter(state, event);
  const idle = state.terminal ? false : idleAfter(state, event);
  const waitReason = state.terminal ? null : reasonOf(stepWaits, idle, state.flow);
  const status: RunStatus = waitReason ? "waiting" : state.status === "waiting" ? "running" : state.status;
  if (stepWaits === state.stepWaits && idle === state.idle && waitReason === state.waitReason && status === state.status) return state;
  return { ...state, stepWaits, idle, waitReason, status };
}

/**
 * When the run's wait ends by itself or expires: the earliest retry or wake-up of a sleep, the
 * earliest expiry of an approval, the earliest timeout of a signal wait; none for a child or a
 * trigger (or no wait).
 */
export function waitingUntil(state: Pick<RunState, "stepWaits" | "waitReason">): number | null {
  let until: number | null = null;
  for (const wait of state.stepWaits.values())
    if (wait.until !== null && wait.reason === state.waitReason && (until === null || wait.until < until)) until = wait.until;
  return until;
}

/** The earliest deadline of any open step wait, whatever its reason (when the run must be driven again by itself). */
export function earliestWaitDeadline(state: Pick<RunState, "stepWaits">): number | null {
  let until: number | null = null;
  for (const wait of state.stepWaits.values()) if (wait.until !== null && (until === null || wait.until < until)) until = wait.until;
  return until;
}

/** The signals sent and not yet consumed that an open signal wait takes: the run can go on at once. */
export function deliverableSignal(state: Pick<RunState, "stepWaits" | "signals">): boolean {
  const awaited = new Set<string>();
  for (const wait of state.stepWaits.values()) if (wait.reason === "signal") for (const s of wait.signals) awaited.add(s.name);
  if (awaited.size === 0) return false;
  for (const signal of state.signals.values()) if (signal.consumedBy === undefined && awaited.has(signal.name)) return true;
  return false;
}
