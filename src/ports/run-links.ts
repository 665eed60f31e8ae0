/**
 * @module The links from a run to the restarts and forks started from it. The new run names its
 * source in its own log (`RunRequested.memo`); an ended source's log takes no more events, so the
 * other direction is kept here (D1 in the Worker), written once per new run after its start.
 */

export type RunRelation = "restart" | "fork";

export type RunLink = {
  readonly tenant: string;
  readonly sourceRunId: string;
  readonly runId: string;
  readonly relation: RunRelation;
  readonly createdAt: number;
};

export interface RunLinks {
  /** Idempotent: the same link written again keeps the first. */
  add(link: RunLink): Promise<void>;
  /** The runs started from this one, oldest first. */
  of(tenant: string, sourceRunId: string): Promise<RunLink[]>;
}
