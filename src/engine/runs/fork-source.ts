/**
 * @module What restarts and forks share: the ports they need beyond the start service's, the
 * source run read from its own log (it must have ended and have run a version), its memo, the new
 * run's id, and the link written once the new run has started.
 */
import { digestJson, digestPrefix } from "../../json/digest.ts";
import type { RunDeletions } from "../../ports/run-deletions.ts";
import { isTerminalType } from "../../ports/run-events.ts";
import type { RunIndex, RunIndexEntry } from "../../ports/run-index.ts";
import type { RunLinks, RunRelation } from "../../ports/run-links.ts";
import type { SourceRuns } from "../../ports/source-runs.ts";
import { RunForkRefusedError } from "../../sdk/errors/run-fork-refused-error.ts";
import { RunNotFoundError } from "../../sdk/errors/run-not-found-error.ts";
import { type MemoTable, memoTable } from "../memo/memo-table.ts";
import { readSourceRun, type SourceRun } from "../memo/source-run.ts";
import { type StepUsage, usageByStepPath } from "../memo/step-usage.ts";
import { missingRun } from "./find-tenant-run.ts";
import type { StartPorts } from "./start-service.ts";

export type ForkPorts = StartPorts & {
  readonly sourceRuns: SourceRuns;
  readonly runLinks: RunLinks;
  readonly deletions: Pick<RunDeletions, "tombstone">;
};

/**
 * The tenant's run as the index has it, for the doors that read a run's whole log (restart, fork,
 * compare): 410 `run_deleted` for a deleted one, 404 `run_not_found` for an unknown one, another
 * tenant's, or a minted anchor that never started.
 */
export async function indexedRun(
  ports: { readonly runs: Pick<RunIndex, "get">; readonly deletions: Pick<RunDeletions, "tombstone"> },
  tenant: string,
  runId: string,
): Promise<RunIndexEntry> {
  const entry = await ports.runs.get(tenant, runId);
  if (entry?.status === "minted") throw new RunNotFoundError(runId);
  return entry ?? missingRun(ports, tenant, runId);
}

export type LoadedSource = {
  readonly entry: RunIndexEntry;
  readonly source: SourceRun;
  readonly memo: MemoTable;
  /** The source's model usage of a step (by step id), for a plan's estimate. */
  readonly usageOf: (stepId: string) => StepUsage | undefined;
};

/**
 * The tenant's ended run, ready to restart or fork: 404 `run_not_found` (another tenant's too), 410 `run_deleted`,
 * 409 `run_active` while it runs, 409 `run_not_forkable` when it never ran a version.
 */
export async function loadEndedSource(ports: ForkPorts, tenant: string, runId: string): Promise<LoadedSource> {
  const entry = await indexedRun(ports, tenant, runId);
  const events = await ports.sourceRuns.events(tenant, runId, entry.placement);
  if (!events.some((e) => isTerminalType(e.type)))
    throw new RunForkRefusedError("run_active", `Run "${runId}" has not ended (${entry.status}); restart or fork it once it has`);
  const source = await readSourceRun(runId, events, ports.versions);
  if (!source)
    throw new RunForkRefusedError(
      "run_not_forkable",
      `Run "${runId}" never ran a version (it ended before its plan, or it is a section run): there is nothing to restart from or reuse`,
    );
  const usage = usageByStepPath(events);
  return {
    entry,
    source,
    memo: await memoTable(source, ports.sourceRuns.blobs(tenant, runId)),
    usageOf: (stepId) => usage.get(`c${source.cycle}/${stepId}`),
  };
}

/** The new run's id: derived from the request's Idempotency-Key (a retry finds its run), else fresh. */
export function forkRunId(tenant: string, sourceRunId: string, relation: RunRelation, key: string | undefined): string {
  if (key) return `run_${relation}_${digestPrefix(digestJson({ tenant, sourceRunId, relation, key }), 24)}`;
  return `run_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/** Links the new run to its source (best effort after the start: the new run's own log names its source either way). */
export async function linkToSource(
  ports: ForkPorts,
  tenant: string,
  sourceRunId: string,
  runId: string,
  relation: RunRelation,
): Promise<void> {
  await ports.runLinks.add({ tenant, sourceRunId, runId, relation, createdAt: ports.clock.now() }).catch(() => undefined);
}
