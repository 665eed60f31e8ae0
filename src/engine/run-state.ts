import type { RunEvent } from "../ports/run-events.ts";
import { applyRunStateEvent, INITIAL_RUN_STATE } from "./run-state/transitions.ts";
import type { RunState } from "./run-state/types.ts";

export {
  decodeRunState,
  encodeRunState,
  type FoldedRun,
  foldFrom,
  RUN_STATE_CHECKPOINT_EVERY,
  RUN_STATE_FOLD,
  RUN_STATE_FOLD_VERSION,
} from "./run-state/checkpoint.ts";
export { progressOf, type RunProgress } from "./run-state/progress.ts";
export { readRunState } from "./run-state/read-state.ts";
export { SliceState } from "./run-state/slice-state.ts";
export {
  applyRunStateEvent,
  FIRST_OCCURRENCE_ID,
  INITIAL_RUN_STATE,
  RUN_STATE_TRANSITIONS,
  type RunStateTransitions,
  runStatusOf,
  type Transition,
} from "./run-state/transitions.ts";
export type {
  ApprovalProgress,
  ChildProgress,
  OccurrenceProgress,
  PauseProgress,
  RunState,
  SignalProgress,
  StepProgress,
  StepWait,
} from "./run-state/types.ts";
export { deliverableSignal, earliestWaitDeadline, waitingUntil } from "./run-state/waits.ts";

/**
 * Folds events into a {@link RunState} with {@link RUN_STATE_TRANSITIONS}. Pure: the same events
 * always give the same state. Every reader of the log (the drive loop, the run object, the
 * inspector, the timeline, the CLI) reads it through these transitions.
 */
export function deriveRunState(events: readonly RunEvent[]): RunState {
  return foldRunEvents(INITIAL_RUN_STATE, events);
}

/** Folds more events into a state (which stays as it was: the result is a new state). */
export function foldRunEvents(state: RunState, events: readonly RunEvent[]): RunState {
  let next = state;
  for (const event of events) next = applyRunStateEvent(next, event);
  return next;
}
