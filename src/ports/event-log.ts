import type { NewRunEvent, RunEvent } from "./run-events.ts";

/**
 * A fold of the log's first `seq` events, stored beside the log in the fold's own text encoding:
 * the log stores and returns it without reading it (ports know no run state; the engine does).
 */
export type LogCheckpoint = { readonly seq: number; readonly state: string };

/**
 * How a log checkpoints a fold of itself, handed to an adapter by the wiring (the engine's run
 * state fold; see `src/engine/run-state/checkpoint.ts`). Pure and synchronous: it runs inside
 * the append's storage turn, so the append's one sync covers the checkpoint too.
 */
export interface LogFold<S> {
  /** The fewest events between two checkpoints (see {@link checkpointDue}). */
  readonly every: number;
  /** The fold of no events. */
  readonly initial: S;
  /** The state a checkpoint holds; null when another version of the fold wrote it (it is ignored). */
  decode(text: string): S | null;
  /** `state` with `events` folded in, as a new state (the one given stays as it was). */
  apply(state: S, events: readonly RunEvent[]): S;
  encode(state: S): string;
}

/**
 * Characters of checkpoint text a checkpoint may cost per event folded since the previous one. A
 * checkpoint is written whole, so a state that grows with the run (a fan-out's step outputs) would
 * make checkpoints every `every` events cost O(n²) over the run; spacing them by their size keeps
 * the cost per event flat (encoding runs at tens of characters per microsecond).
 */
export const CHECKPOINT_CHARS_PER_EVENT = 100;

/**
 * Whether the append that brings a log to `seq` writes a checkpoint, the newest one being `last`
 * (its seq and text length; null when there is none): once `every` events have passed since it, or
 * more for a large state ({@link CHECKPOINT_CHARS_PER_EVENT}).
 */
export function checkpointDue(every: number, seq: number, last: { readonly seq: number; readonly length: number } | null): boolean {
  const since = seq - (last?.seq ?? 0);
  return since >= Math.max(every, Math.ceil((last?.length ?? 0) / CHECKPOINT_CHARS_PER_EVENT));
}

/** How one append is stamped. */
export type AppendOptions = {
  /**
   * The batch's time (epoch ms), for a writer whose events quote it (a signal's `receivedAt` in the
   * step output beside it), read in the same turn as its read of the log; never earlier than the
   * log's last event (it is raised to that). The log's clock by default.
   */
  readonly at?: number;
};

/**
 * The run's append-only event log. One log per run; `seq` is dense from 1. `append` returns once
 * the events are durable (in a Durable Object: written and `storage.sync()`ed), so a side effect
 * that follows can rely on its event surviving a crash.
 */
export interface EventLog {
  readonly runId: string;
  append(events: readonly NewRunEvent[], options?: AppendOptions): Promise<RunEvent[]>;
  /** Every event in order (the drive loop replays from this). */
  all(): Promise<RunEvent[]>;
  /** A page of events with `seq > after`, optionally only types matching the patterns (exact, or a prefix ending in `*`). */
  page(options: { after: number; limit: number; types?: readonly string[] }): Promise<RunEvent[]>;
  /**
   * The newest fold checkpoint, or null (none written yet, or the log was opened without a
   * {@link LogFold}). A reader folds the events after its `seq` into it instead of reading the
   * whole log. It never covers an event the log does not hold: it is written in the same storage
   * turn as the events it covers.
   */
  checkpoint(): Promise<LogCheckpoint | null>;
}
