/**
 * @module What deleting a run leaves and removes outside its run object (docs/runs.md, "Retention
 * and deletion"): the tombstone that keeps its id from being reused, the database rows keyed by
 * the run, and the tenants' retention overrides. D1 in the Worker (src/adapters/d1).
 */
import type { RunPlacement } from "./run-events.ts";

/** What is left of a deleted run: no input, output or log, only who deleted it and when. */
export type RunTombstone = {
  readonly tenant: string;
  readonly runId: string;
  readonly workflowId: string;
  readonly placement: RunPlacement;
  /** `pending` while the purge is under way (a crash leaves it so: a retry finishes it), then `done`. */
  readonly state: "pending" | "done";
  /** A token id (`tok_…`), `dev`, `admin`, `retention` or `bulk:<job id>`. */
  readonly by: string;
  /** Epoch ms. */
  readonly deletedAt: number;
};

/** An ended run the retention sweep may delete. */
export type ExpiredRun = { readonly tenant: string; readonly runId: string };

export interface RunDeletions {
  tombstone(tenant: string, runId: string): Promise<RunTombstone | null>;
  /** Writes a pending tombstone; an existing one is kept (and answered) as it is. */
  begin(tombstone: Omit<RunTombstone, "state">): Promise<RunTombstone>;
  /** Deletes every database row keyed by this run (the index row last), except its tombstone. */
  purgeRows(tenant: string, runId: string): Promise<void>;
  /** Marks the tombstone `done`: the purge is complete. */
  finish(tenant: string, runId: string): Promise<void>;
  /** Tombstones whose purge did not finish (a crash), oldest first. */
  pending(limit: number): Promise<RunTombstone[]>;
  /** Ended runs that retention deletes: those ended before `cutoff` (epoch ms) of tenants with no override, or before each override's own. */
  expired(query: { readonly defaultDays: number | null; readonly now: number; readonly limit: number }): Promise<ExpiredRun[]>;
  /** A tenant's retention override: days, or null for "keep forever"; undefined when it has none. */
  retention(tenant: string): Promise<number | null | undefined>;
  /** Sets (days or null: keep forever) or removes (`undefined`) a tenant's override. */
  setRetention(tenant: string, days: number | null | undefined, at: number): Promise<void>;
}
