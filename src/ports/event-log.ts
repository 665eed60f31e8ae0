import type { NewRunEvent, RunEvent } from "./run-events.ts";

/**
 * The run's append-only event log. One log per run; `seq` is dense from 1. `append` returns once
 * the events are durable (in a Durable Object: written and `storage.sync()`ed), so a side effect
 * that follows can rely on its event surviving a crash.
 */
export interface EventLog {
  readonly runId: string;
  append(events: readonly NewRunEvent[]): Promise<RunEvent[]>;
  /** Every event in order (the drive loop replays from this). */
  all(): Promise<RunEvent[]>;
  /** A page of events with `seq > after`, optionally only types matching the patterns (exact, or a prefix ending in `*`). */
  page(options: { after: number; limit: number; types?: readonly string[] }): Promise<RunEvent[]>;
}
