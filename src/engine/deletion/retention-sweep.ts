/**
 * @module Retention (docs/runs.md, "Retention and deletion"): each cron tick deletes ended runs
 * older than the tenant's retention (its override set through the admin API, else
 * `LITTLE_RETENTION_DAYS`; neither: kept for ever), through {@link deleteRun} like any deletion.
 * Resumable: deletions a crash left pending are finished first, and the expired runs are found
 * again from the index each page (a deleted run's row is gone), so nothing needs a saved position.
 */
import { type DeletionPorts, deleteRun, purgeRun } from "./delete-run.ts";
import { VERSION_GRACE_MS } from "./unused-versions.ts";

/** What one sweep did: logged as one JSON line (`little.retention`). */
export type RetentionReport = {
  /** Deletions a crash had left half done, finished now. */
  resumed: number;
  deleted: number;
  failed: number;
  /** Each failure's run and cause (the first few). */
  failures: { tenant: string; runId: string; code: string; message: string }[];
  /** True when the sweep stopped at its limit with expired runs left (the next tick goes on). */
  more: boolean;
  /** Versions nothing references any more, deleted at the end of the tick (at most a page of them). */
  versionsDeleted: number;
};

export type RetentionOptions = {
  /** `LITTLE_RETENTION_DAYS`, or null when unset (only tenants with an override are swept). */
  readonly defaultDays: number | null;
  /** Runs per page read from the index. */
  readonly pageSize?: number;
  /** Deletions one tick may do; the rest wait for the next tick. */
  readonly maxRuns?: number;
};

const MAX_LISTED_FAILURES = 10;

/** One tick's sweep. */
export async function sweepRetention(ports: DeletionPorts, options: RetentionOptions): Promise<RetentionReport> {
  const report = await sweepRuns(ports, options);
  // What a deletion could not collect (its grace period had not passed, or a crash) is found here.
  report.versionsDeleted = (await ports.unusedVersions.sweep(ports.clock.now() - VERSION_GRACE_MS, options.pageSize ?? 50)).length;
  return report;
}

async function sweepRuns(ports: DeletionPorts, options: RetentionOptions): Promise<RetentionReport> {
  const pageSize = options.pageSize ?? 50;
  const maxRuns = options.maxRuns ?? 500;
  const report: RetentionReport = { resumed: 0, deleted: 0, failed: 0, failures: [], more: false, versionsDeleted: 0 };
  for (const tombstone of await ports.deletions.pending(pageSize)) {
    const ok = await attempt(report, tombstone, () => purgeRun(ports, tombstone));
    if (ok) report.resumed++;
  }
  const failedIds = new Set<string>();
  while (report.deleted + report.failed < maxRuns) {
    const page = await ports.deletions.expired({ defaultDays: options.defaultDays, now: ports.clock.now(), limit: pageSize });
    const todo = page.filter((r) => !failedIds.has(`${r.tenant}:${r.runId}`));
    // A page of runs that all failed already in this tick: stop rather than spin on them.
    if (todo.length === 0) return report;
    for (const run of todo) {
      const ok = await attempt(report, run, () =>
        deleteRun(ports, { tenant: run.tenant, runId: run.runId, cancel: false, by: "retention" }),
      );
      if (ok) report.deleted++;
      else failedIds.add(`${run.tenant}:${run.runId}`);
    }
  }
  report.more = true;
  return report;
}

async function attempt(report: RetentionReport, run: { tenant: string; runId: string }, act: () => Promise<unknown>): Promise<boolean> {
  try {
    await act();
    return true;
  } catch (error) {
    report.failed++;
    if (report.failures.length < MAX_LISTED_FAILURES) {
      const code = typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "internal_error";
      report.failures.push({ tenant: run.tenant, runId: run.runId, code, message: error instanceof Error ? error.message : String(error) });
    }
    return false;
  }
}
