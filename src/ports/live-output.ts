/**
 * @module Live model output (docs/observability.md, "Live model output"): the partial text of a
 * model call in flight, as the provider streams it. Never journaled: the log keeps only the final
 * answer (`harness.model.responded`), so replay and saved histories don't depend on it.
 */
import type { HarnessRole } from "./run-events.ts";

/** What a delta carries: the answer's text, the model's reasoning, or a tool call's arguments as they are written. */
export type ModelDeltaChannel = "text" | "reasoning" | "tool-input";

/** The model call a delta belongs to, as its `harness.model.called` event names it. */
export type LiveModelCall = {
  readonly sessionId: string;
  /** `<session>/model/<n>`, the `callId` of the call's events. */
  readonly callId: string;
  /** The call's number in its session (1-based; the `turn` of `harness.model.called`). */
  readonly call: number;
  readonly role: HarnessRole;
  /** The step the session works for (worker, fixer); null for the planner. */
  readonly stepPath: string | null;
  /** True when the answer's text is structured output (JSON): its deltas also carry the partial object. */
  readonly structured: boolean;
};

/**
 * One `event: delta` message. `offset` is where `text` starts in the channel's whole text so far,
 * so a client keeps `whole = whole.slice(0, offset) + text`: a late join or a resume sends the text
 * so far once (offset 0), and a retried attempt starts again at 0.
 */
export type ModelDelta = Omit<LiveModelCall, "structured"> & {
  readonly channel: ModelDeltaChannel;
  readonly offset: number;
  readonly text: string;
  /** For structured output: the object parsed from the text so far (`undefined` until it parses). */
  readonly partial?: unknown;
};

/**
 * Where the harness reports a live call's progress. Every method is synchronous and must not
 * throw or wait on a reader: delivery can never slow or endanger the call.
 */
export interface LiveModelOutput {
  /** A live attempt of the call opened: its text starts again from nothing. */
  begin(call: LiveModelCall): void;
  /** Text the provider streamed and the loop received. */
  delta(callId: string, channel: ModelDeltaChannel, text: string): void;
  /** The call was answered, failed or cut: it is no longer live. */
  end(callId: string): void;
}
