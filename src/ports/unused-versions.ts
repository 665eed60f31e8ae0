/**
 * @module Deleting the versions nothing needs any more (docs/runs.md, "Versions of deleted runs").
 * A version is referenced by a run whose index row names it (the version its last cycle ran: what
 * restarts, forks, pins and `GET /v1/versions/:id` reach) in any tenant, or by a definition
 * approval that pins it. An unreferenced version is deleted (its row and its compiler locks) only
 * when no run registered it within the grace period: a run registering it now keeps it. D1 in the
 * Worker (src/adapters/d1/d1-unused-versions.ts).
 */

export interface UnusedVersions {
  /**
   * Of these versions (by `wfver_` id), deletes each that nothing references and no run registered
   * since `usedBefore` (epoch ms). The check and the delete are one transaction. Answers the ids deleted.
   */
  collect(versionIds: readonly string[], usedBefore: number): Promise<string[]>;
  /** The same over the whole store, at most `limit` versions (the cron's sweep: what a crash left). */
  sweep(usedBefore: number, limit: number): Promise<string[]>;
}
