import type { LogFold } from "../../ports/event-log.ts";
import type { RunEvent, RunEventPayloads } from "../../ports/run-events.ts";
import { PersistentMap, PersistentSet } from "./persistent-map.ts";
import { applyRunStateEvent, INITIAL_RUN_STATE } from "./transitions.ts";
import type { ApprovalProgress, RunState, SignalProgress, StepProgress, StepWait } from "./types.ts";

/**
 * The version of the fold a checkpoint was written by. Bump it whenever a transition or the state's
 * shape changes what a fold gives: a checkpoint of another version is ignored (the reader folds
 * from the start, and the next crossing writes a checkpoint of this version). The pinned digest of
 * the saved histories' folds in test/engine/run-state-checkpoint.test.ts fails until it is bumped.
 */
export const RUN_STATE_FOLD_VERSION = 3;

/**
 * The fewest events between two checkpoints of the fold. A large state is checkpointed more
 * sparsely (`checkpointDue` in ports/event-log.ts: at most 100 characters of checkpoint per event),
 * so a reader folds at most max(1,000, the checkpoint's length / 100) events past the newest one.
 */
export const RUN_STATE_CHECKPOINT_EVERY = 1_000;

/** A {@link RunState} as JSON data: its maps and sets as entry arrays, in their insertion order. */
type RunStateJson = Omit<
  RunState,
  "registered" | "started" | "stepOutputs" | "steps" | "skipped" | "scheduled" | "approvals" | "stepWaits" | "signals"
> & {
  readonly registered: readonly (readonly [number, RunEventPayloads["WorkflowVersionRegistered"]])[];
  readonly started: readonly number[];
  readonly stepOutputs: readonly (readonly [string, unknown])[];
  readonly steps: readonly (readonly [string, StepProgress])[];
  readonly skipped: readonly string[];
  readonly scheduled: readonly string[];
  readonly approvals: readonly (readonly [string, ApprovalProgress])[];
  readonly stepWaits: readonly (readonly [string, StepWait])[];
  readonly signals: readonly (readonly [string, SignalProgress])[];
};

type Checkpoint = { readonly fold: number; readonly state: RunStateJson };

/**
 * The state as checkpoint text. Lossless for every reader: everything in a state is JSON data (event
 * payloads are canonical JSON) but its maps and sets, written as entries. An `undefined` field
 * (an occurrence's absent output) is dropped, which every reader already treats as absent.
 */
export function encodeRunState(state: RunState): string {
  const json: RunStateJson = {
    ...state,
    registered: [...state.registered],
    started: [...state.started],
    stepOutputs: state.stepOutputs.toEntries(),
    steps: state.steps.toEntries(),
    skipped: state.skipped.toArray(),
    scheduled: state.scheduled.toArray(),
    approvals: state.approvals.toEntries(),
    stepWaits: [...state.stepWaits],
    signals: state.signals.toEntries(),
  };
  return JSON.stringify({ fold: RUN_STATE_FOLD_VERSION, state: json } satisfies Checkpoint);
}

/** The state a checkpoint holds; null when another version of the fold wrote it, or it is no checkpoint. */
export function decodeRunState(text: string): RunState | null {
  let parsed: Partial<Checkpoint>;
  try {
    parsed = JSON.parse(text) as Partial<Checkpoint>;
  } catch {
    return null;
  }
  if (parsed?.fold !== RUN_STATE_FOLD_VERSION || typeof parsed.state !== "object" || parsed.state === null) return null;
  const json = parsed.state;
  return {
    ...json,
    registered: new Map(json.registered),
    started: new Set(json.started),
    stepOutputs: PersistentMap.of(json.stepOutputs),
    steps: PersistentMap.of(json.steps),
    skipped: setOf(json.skipped),
    scheduled: setOf(json.scheduled),
    approvals: PersistentMap.of(json.approvals),
    stepWaits: new Map(json.stepWaits),
    signals: PersistentMap.of(json.signals),
  };
}

function setOf(keys: readonly string[]): PersistentSet {
  let set = PersistentSet.empty();
  for (const key of keys) set = set.add(key);
  return set;
}

/** A checkpointed state: the fold of the log's events up to `seq`. */
export type FoldedRun = { readonly state: RunState; readonly seq: number };

/**
 * Folds the events after a checkpoint into it: the same state as folding the whole log, given
 * `tail` is every event after `from.seq`, in order (checked: a gap would be a wrong state).
 */
export function foldFrom(from: FoldedRun | null, tail: readonly RunEvent[]): FoldedRun {
  let { state, seq } = from ?? { state: INITIAL_RUN_STATE, seq: 0 };
  for (const event of tail) {
    if (event.seq !== seq + 1) throw new Error(`run state fold: event ${event.seq} follows ${seq}; the log has a gap`);
    state = applyRunStateEvent(state, event);
    seq = event.seq;
  }
  return { state, seq };
}

/** The run state fold as the event log adapters checkpoint it (handed to them by the wiring). */
export const RUN_STATE_FOLD: LogFold<RunState> = {
  every: RUN_STATE_CHECKPOINT_EVERY,
  initial: INITIAL_RUN_STATE,
  decode: decodeRunState,
  apply: (state, events) => {
    let next = state;
    for (const event of events) next = applyRunStateEvent(next, event);
    return next;
  },
  encode: encodeRunState,
};
