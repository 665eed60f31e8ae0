import { applyRunStateEvent, INITIAL_RUN_STATE, type OccurrenceProgress, type RunState, runStatusOf } from "../engine/run-state.ts";
import type { RunCauseCode, RunEvent, RunEventType } from "../ports/run-events.ts";
import { CALL_PRESENTERS } from "./call-views.ts";
import type { OccurrenceView, RunView } from "./run-view-types.ts";
import { type Presenter, type Presenters, STEP_PRESENTERS, stopInFlight } from "./step-nodes.ts";

export type * from "./run-view-types.ts";

/**
 * What the inspector shows of a run, built on the engine's fold (src/engine/run-state.ts): each
 * event first advances `view.state` through the engine's transitions, and the run-level fields
 * (status and wait reason, request, version, usage, offline models, occurrences, cycles, the end) are copied from
 * that state, so the page and the engine cannot disagree. On top, presentation only: each step's
 * node (one per step id, for the latest cycle), attempts, fan-out branches, and the model and tool
 * calls of the sessions that ran for a step. Pure, so the browser and the tests run the same code.
 */

/** A run before its first event. */
export function emptyRunView(): RunView {
  return {
    state: INITIAL_RUN_STATE,
    lastSeq: 0,
    status: INITIAL_RUN_STATE.status,
    waitReason: INITIAL_RUN_STATE.waitReason,
    workflowId: null,
    input: undefined,
    requestedAt: null,
    startedAt: null,
    endedAt: null,
    cycle: 1,
    occurrence: null,
    occurrences: [],
    cycles: [],
    versionId: null,
    version: null,
    steps: {},
    planner: { sessions: [], modelCalls: [], toolCalls: [] },
    output: undefined,
    failure: null,
    cancelReason: null,
    usage: INITIAL_RUN_STATE.usage,
    offlineModels: INITIAL_RUN_STATE.offlineModels,
  };
}

/**
 * Folds events into a view.
 *
 * @example
 * const view = reduceRunEvents(events);
 * view.steps.summarize?.status // "succeeded"
 */
export function reduceRunEvents(events: readonly RunEvent[], view: RunView = emptyRunView()): RunView {
  for (const event of events) applyRunEvent(view, event);
  return view;
}

/**
 * Applies one event to `view` in place (the live page applies thousands; copying the view each
 * time buys nothing; the fold's state it holds is immutable and shares structure). Events at or
 * below `view.lastSeq` are ignored, so a resumed stream that repeats some is harmless; event types
 * it does not know only advance `lastSeq`.
 */
export function applyRunEvent(view: RunView, event: RunEvent): void {
  if (event.seq <= view.lastSeq) return;
  view.lastSeq = event.seq;
  const prior = view.state;
  view.state = applyRunStateEvent(prior, event);
  copyRunFields(view, prior, event);
  const present = PRESENTERS[event.type] as Presenter<RunEventType> | undefined;
  present?.(view, event);
}

/** The run-level fields, from the fold's state where it changed. */
function copyRunFields(view: RunView, prior: RunState, event: RunEvent): void {
  const state = view.state;
  view.status = runStatusOf(state);
  view.waitReason = state.waitReason;
  view.usage = state.usage;
  view.offlineModels = state.offlineModels;
  if (state.request && state.request !== prior.request) {
    view.workflowId = state.request.workflowId;
    view.input = state.request.input;
    view.requestedAt = state.requestedAt;
  }
  if (state.registered !== prior.registered) {
    const latest = [...state.registered.values()].at(-1);
    if (latest) {
      view.versionId = latest.versionId;
      view.version = { versionHash: latest.versionHash, lockHash: latest.lockHash, definitionHash: latest.definitionHash };
    }
  }
  if (state.section && (state.occurrences !== prior.occurrences || !prior.section)) {
    // By id: a long section rebuilds every occurrence on each of its events, so no search per one.
    const seen = new Map(view.occurrences.map((v) => [v.id, v]));
    view.occurrences = state.occurrences.map((o) => occurrenceView(view, o, event, seen.get(o.occurrenceId)));
  }
  if (state.cyclesCompleted !== prior.cyclesCompleted)
    view.cycles = state.cyclesCompleted.map((c, i) => ({ ...c, endedAt: view.cycles[i]?.endedAt ?? event.at }));
  if (state.terminal && state.terminal !== prior.terminal) copyEnd(view, state.terminal);
}

/** A section's occurrence as the fold has it, with the times the page saw. */
function occurrenceView(view: RunView, o: OccurrenceProgress, event: RunEvent, seen: OccurrenceView | undefined): OccurrenceView {
  const payload: unknown = event.payload;
  const named = typeof payload === "object" && payload !== null && "occurrenceId" in payload && payload.occurrenceId === o.occurrenceId;
  const now = named ? event.at : null;
  const firstSeen = o.occurrenceId === view.state.occurrences[0]?.occurrenceId ? view.requestedAt : now;
  return {
    id: o.occurrenceId,
    status: o.status,
    queuedAt: seen?.queuedAt ?? firstSeen,
    startedAt: seen?.startedAt ?? (o.status === "queued" ? null : now),
    endedAt: seen?.endedAt ?? (o.status === "completed" || o.status === "failed" ? now : null),
    trigger: o.trigger.kind,
    output: o.output,
    failure: o.cause ? { causeCode: o.cause.code as RunCauseCode, message: o.cause.message } : null,
    rearmed: o.rearmed === true,
  };
}

/** The run ended: its output, cause or cancel reason, and the nodes in flight stopped. */
function copyEnd(view: RunView, terminal: RunEvent): void {
  view.endedAt = terminal.at;
  if (terminal.type === "RunCompleted") view.output = terminal.payload.output;
  if (terminal.type === "RunFailed") {
    const { causeCode, message, details } = terminal.payload;
    view.failure = { causeCode, message, ...(details !== undefined ? { details } : {}) };
  }
  if (terminal.type === "RunCancelled") view.cancelReason = terminal.payload.reason;
  if (terminal.type !== "RunCompleted") stopInFlight(view);
}

/** What the page adds to an event beyond the fold: the step nodes and the calls. */
const PRESENTERS: Presenters = {
  ...CALL_PRESENTERS,
  ...STEP_PRESENTERS,
  RunStarted: (view, { payload, at }) => {
    if (payload.cycle > view.cycle) {
      // A replanned cycle runs a new version: its steps start over.
      view.cycle = payload.cycle;
      view.steps = {};
    }
    view.versionId = payload.versionId;
    view.startedAt ??= at;
  },
  OccurrenceStarted: (view, { payload }) => {
    // The DAG shows the occurrence in progress: its steps start over.
    view.occurrence = payload.occurrenceId;
    view.steps = {};
  },
};
