import { flowGateId } from "../../ports/flow-limiter.ts";
import type { RunEvent, RunEventType, TokenUsage } from "../../ports/run-events.ts";
import type { RunStatus } from "../../ports/run-status.ts";
import { PersistentMap, PersistentSet } from "./persistent-map.ts";
import type { OccurrenceProgress, RunState } from "./types.ts";
import { settleWaits } from "./waits.ts";

/** What one event of type `K` does to a run's state. Pure: it returns a new state, never changes the one given. */
export type Transition<K extends RunEventType> = (state: RunState, event: RunEvent<K>) => RunState;

/**
 * One transition per event type of the union in ports/run-events.ts. The mapped type makes it
 * exhaustive: a new event type does not compile until it is handled here (an event the engine
 * ignores says so with {@link unchanged}).
 */
export type RunStateTransitions = { readonly [K in RunEventType]: Transition<K> };

/** A run before its first event. */
export const INITIAL_RUN_STATE: RunState = {
  request: null,
  requestedAt: 0,
  status: "pending",
  terminal: null,
  cycle: 1,
  registered: new Map(),
  started: new Set(),
  cyclesCompleted: [],
  stepOutputs: PersistentMap.empty(),
  steps: PersistentMap.empty(),
  skipped: PersistentSet.empty(),
  scheduled: PersistentSet.empty(),
  approvals: PersistentMap.empty(),
  section: false,
  occurrences: [],
  offlineModels: [],
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 },
  stepWaits: new Map(),
  idle: false,
  waitReason: null,
  signals: PersistentMap.empty(),
  children: [],
};

/** The run's first occurrence: a section's first trigger is the run's own input (named by the engine, see run-section.ts). */
export const FIRST_OCCURRENCE_ID = "o1";

function unchanged(state: RunState): RunState {
  return state;
}

function setOccurrence(state: RunState, id: string, change: Partial<OccurrenceProgress>, status: RunStatus): RunState {
  const at = state.occurrences.findIndex((o) => o.occurrenceId === id);
  const occurrences =
    at === -1 ? state.occurrences : state.occurrences.with(at, { ...(state.occurrences[at] as OccurrenceProgress), ...change });
  return { ...state, occurrences, status, section: true };
}

/** The list with `occurrence` replacing the one of its id in place, or appended. */
function upsert(list: readonly OccurrenceProgress[], occurrence: OccurrenceProgress): readonly OccurrenceProgress[] {
  const at = list.findIndex((o) => o.occurrenceId === occurrence.occurrenceId);
  return at === -1 ? [...list, occurrence] : list.with(at, occurrence);
}

/**
 * Usage summed over model responses, as RunCompleted records it: total = input + output, and the
 * cost unknown (null) once any response's is.
 */
function addUsage(sum: TokenUsage, usage: TokenUsage): TokenUsage {
  const inputTokens = sum.inputTokens + usage.inputTokens;
  const outputTokens = sum.outputTokens + usage.outputTokens;
  const cost = usage.costUsd ?? null;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    costUsd: sum.costUsd === null || cost === null ? null : sum.costUsd + cost,
  };
}

function ended(status: RunStatus): Transition<"RunFailed" | "RunCancelled"> {
  return (state, event) => ({ ...state, terminal: event, status });
}

/** The status a run reports: `paused` while an operator's pause holds it (and it has not ended), else the fold's own. */
export function runStatusOf(state: Pick<RunState, "status" | "terminal" | "paused">): RunStatus {
  return state.paused && !state.terminal ? "paused" : state.status;
}

export const RUN_STATE_TRANSITIONS: RunStateTransitions = {
  RunRequested: (state, { payload, at }) => ({
    ...state,
    request: payload,
    requestedAt: at,
    occurrences: upsert(state.occurrences, {
      occurrenceId: FIRST_OCCURRENCE_ID,
      input: payload.input,
      trigger: payload.trigger,
      status: "queued",
    }),
  }),
  "harness.session.started": (state) => (state.status === "pending" ? { ...state, status: "compiling" } : state),
  "harness.session.completed": unchanged,
  "harness.session.failed": unchanged,
  "harness.model.called": unchanged,
  "harness.model.responded": (state, { payload }) => {
    const usage = addUsage(state.usage, payload.usage);
    const answered = `${payload.model.providerId}/${payload.model.modelId}`;
    if (!payload.model.offline || state.offlineModels.includes(answered)) return { ...state, usage };
    return { ...state, usage, offlineModels: [...state.offlineModels, answered] };
  },
  "harness.model.failed": unchanged,
  "harness.tool_call.started": unchanged,
  "harness.tool_call.succeeded": unchanged,
  "harness.tool_call.failed": unchanged,
  WorkflowVersionRegistered: (state, { payload }) => ({ ...state, registered: new Map(state.registered).set(state.cycle, payload) }),
  RunStarted: (state, { payload }) => ({
    ...state,
    started: new Set(state.started).add(payload.cycle),
    status: "running",
    ...(payload.steps !== undefined ? { plannedSteps: { cycle: payload.cycle, steps: payload.steps } } : {}),
  }),
  StepScheduled: (state, { payload }) => ({ ...state, scheduled: state.scheduled.add(payload.stepPath) }),
  StepStarted: (state, { payload }) => ({
    ...state,
    steps: state.steps.set(payload.stepPath, {
      attempt: payload.attempt,
      started: true,
      ...(payload.deadline !== undefined ? { deadline: payload.deadline } : {}),
    }),
  }),
  StepSucceeded: (state, { payload }) => ({
    ...state,
    stepOutputs: state.stepOutputs.set(payload.stepPath, payload.output),
  }),
  StepFailed: (state, { payload }) => {
    const prior = state.steps.get(payload.stepPath);
    return {
      ...state,
      steps: state.steps.set(payload.stepPath, {
        attempt: payload.attempt,
        started: true,
        ...(prior?.deadline !== undefined ? { deadline: prior.deadline } : {}),
        failed: { ...(payload.error.code ? { code: payload.error.code } : {}), message: payload.error.message, attempt: payload.attempt },
      }),
    };
  },
  StepRetried: (state, { payload }) => ({
    ...state,
    steps: state.steps.set(payload.stepPath, {
      attempt: payload.attempt + 1,
      started: false,
      retryAt: payload.retryAt,
      previousError: { code: payload.error.code ?? "", message: payload.error.message },
    }),
  }),
  StepSkipped: (state, { payload }) => ({ ...state, skipped: state.skipped.add(payload.stepPath) }),
  OuterLoopCycleCompleted: (state, { payload }) => ({
    ...state,
    cyclesCompleted: [...state.cyclesCompleted, payload],
    cycle: payload.cycleNumber + 1,
    status: "compiling",
  }),
  ApprovalRequested: (state, { payload }) => ({ ...state, approvals: state.approvals.set(payload.approvalId, payload) }),
  ApprovalDecided: (state, { payload }) => {
    const asked = state.approvals.get(payload.approvalId);
    return asked ? { ...state, approvals: state.approvals.set(payload.approvalId, { ...asked, decision: payload }) } : state;
  },
  OccurrenceQueued: (state, { payload }) => ({
    ...state,
    occurrences: upsert(state.occurrences, { ...payload, status: "queued" }),
    section: true,
    // Work is pending again: the section is no longer idle.
    status: state.status === "waiting" ? "running" : state.status,
  }),
  OccurrenceStarted: (state, { payload }) => setOccurrence(state, payload.occurrenceId, { status: "running" }, "running"),
  OccurrenceCompleted: (state, { payload }) =>
    setOccurrence(state, payload.occurrenceId, { status: "completed", output: payload.output }, "waiting"),
  OccurrenceFailed: (state, { payload }) =>
    setOccurrence(
      state,
      payload.occurrenceId,
      { status: "failed", cause: { code: payload.causeCode, message: payload.message }, rearmed: payload.rearmed },
      "waiting",
    ),
  RunCompleted: (state, event) => ({ ...state, terminal: event, status: "completed", usage: event.payload.usage }),
  RunFailed: ended("failed"),
  RunCancelled: ended("cancelled"),
  // A pause of an ended run changes nothing (the host refuses it; a log could still hold one).
  RunPaused: (state, { payload, at }) => (state.terminal || state.paused ? state : { ...state, paused: { by: payload.by, at } }),
  RunResumed: (state) => {
    if (!state.paused) return state;
    const { paused: _paused, ...resumed } = state;
    return resumed;
  },
  // The wait itself is the step's open wait (waits.ts).
  WaitStarted: unchanged,
  SignalReceived: (state, { payload, at }) =>
    state.signals.has(payload.signalId)
      ? state
      : { ...state, signals: state.signals.set(payload.signalId, { ...payload, receivedAt: at }) },
  SignalConsumed: (state, { payload }) => {
    const signal = state.signals.get(payload.signalId);
    return signal ? { ...state, signals: state.signals.set(payload.signalId, { ...signal, consumedBy: payload.stepPath }) } : state;
  },
  ChildRunStarted: (state, { payload, at }) =>
    state.children.some((c) => c.childRunId === payload.childRunId)
      ? state
      : { ...state, children: [...state.children, { ...payload, startedAt: at }] },
  ChildRunEnded: (state, { payload }) => {
    const at = state.children.findIndex((c) => c.childRunId === payload.childRunId);
    const child = state.children[at];
    if (!child || child.ended) return state;
    const { stepPath: _s, attempt: _a, childRunId: _c, ...outcome } = payload;
    return { ...state, children: state.children.with(at, { ...child, ended: outcome }) };
  },
  FlowQueued: (state, { payload }) => {
    const prior = state.flow;
    const gate = flowGateId(payload, payload.gate);
    const resume = prior?.queued ? prior.resume : state.status === "waiting" ? "running" : state.status;
    return { ...state, flow: { queued: payload, admitted: (prior?.admitted ?? []).filter((g) => g !== gate), resume } };
  },
  FlowAdmitted: (state, { payload }) => {
    const prior = state.flow;
    const gate = flowGateId(payload, payload.gate);
    const admitted = prior?.admitted.includes(gate) ? prior.admitted : [...(prior?.admitted ?? []), gate];
    // Back to where the run was before it queued (a new run: `pending`, compiled next).
    const status = prior?.queued && !state.terminal ? prior.resume : state.status;
    return { ...state, status, flow: { queued: null, admitted, resume: prior?.resume ?? state.status } };
  },
  // Waits only (waits.ts): a model call's rate-limit wait opens and closes its step's wait.
  ModelRateLimited: unchanged,
  ModelRateLimitLifted: unchanged,
};

/**
 * Applies one event: its transition, then the waits it opens or closes (waits.ts), which decide
 * whether the run is `waiting` and why. An event type this build does not know (a newer
 * writer's, read by a client) leaves the state as it was.
 */
export function applyRunStateEvent(state: RunState, event: RunEvent): RunState {
  const transition = RUN_STATE_TRANSITIONS[event.type] as Transition<RunEventType> | undefined;
  return transition ? settleWaits(transition(state, event), event) : state;
}
