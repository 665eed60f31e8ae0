/**
 * @module One step of a bulk job's walk over the run index (docs/runs.md, "Bulk actions"): read the
 * next page of matching runs and store it with the cursor after it before acting on any; then act
 * on the page's runs one by one, storing the position after each. A crash at any point resumes
 * from what was stored: a page is never read twice and a run recorded as done is never acted on
 * again (the one in flight is repeated, which each action makes harmless: bulk-actions.ts).
 */
import type { BulkFailure, BulkJobSpec, BulkJobView } from "../../ports/bulk-jobs.ts";
import type { RunCursor, RunIndexEntry } from "../../ports/run-index.ts";
import { type BulkPorts, bulkRunAction } from "./bulk-actions.ts";

/** What a job keeps between steps (its object's storage). */
export type BulkJobState = {
  readonly spec: BulkJobSpec;
  /** Where the next page starts; null when the index holds no more matches. */
  cursor: RunCursor | null;
  /** The page being acted on, and how far: stored before the first act on it. */
  page: string[] | null;
  position: number;
  matched: number;
  done: number;
  failed: number;
  failures: BulkFailure[];
  sample: string[];
  endedAt: number | null;
};

/** Where a job's state lives; `write` is durable when it resolves. */
export type BulkJobStore = { read(): Promise<BulkJobState | null>; write(state: BulkJobState): Promise<void> };

export const BULK_PAGE_SIZE = 25;
const MAX_LISTED = 100;

/** A new job's state: the walk starts before `createdBefore` (exclusive), or at the newest run. */
export function newBulkJob(spec: BulkJobSpec): BulkJobState {
  const before = spec.filter.createdBefore;
  return {
    spec,
    cursor: before !== undefined ? { createdAt: before, runId: "" } : { createdAt: Number.MAX_SAFE_INTEGER, runId: "" },
    page: null,
    position: 0,
    matched: 0,
    done: 0,
    failed: 0,
    failures: [],
    sample: [],
    endedAt: null,
  };
}

/** One page's worth of the walk; answers whether more is left (the caller arms its alarm again). */
export async function stepBulkJob(ports: BulkPorts, store: BulkJobStore, pageSize = BULK_PAGE_SIZE): Promise<"more" | "done"> {
  const state = await store.read();
  if (!state || state.endedAt !== null) return "done";
  if (state.page === null) {
    if (state.cursor === null) return finish(ports, store, state);
    await readPage(ports, state, pageSize);
    await store.write(state);
  }
  const act = state.spec.dryRun ? null : bulkRunAction(state.spec.action);
  const page = state.page ?? [];
  while (act && state.position < page.length) {
    const runId = page[state.position] as string;
    try {
      await act(ports, { tenant: state.spec.tenant, runId, jobId: state.spec.jobId });
      state.done++;
    } catch (error) {
      state.failed++;
      if (state.failures.length < MAX_LISTED) state.failures.push(failureOf(runId, error));
    }
    state.position++;
    await store.write(state);
  }
  state.page = null;
  state.position = 0;
  if (state.cursor === null) return finish(ports, store, state);
  await store.write(state);
  return "more";
}

/** Reads the page after the cursor into the state: the matches, and the cursor after them (null at the end). */
async function readPage(ports: BulkPorts, state: BulkJobState, pageSize: number): Promise<void> {
  const { spec } = state;
  const rows: RunIndexEntry[] = await ports.runs.list({
    tenant: spec.tenant,
    ...(spec.filter.workflowId ? { workflowId: spec.filter.workflowId } : {}),
    ...(spec.filter.status ? { status: spec.filter.status } : {}),
    ...(spec.filter.waitReason ? { waitReason: spec.filter.waitReason } : {}),
    ...(spec.filter.tag !== undefined ? { tags: [tagOf(spec.filter.tag)] } : {}),
    ...(state.cursor ? { before: state.cursor } : {}),
    limit: pageSize,
  });
  const after = spec.filter.createdAfter;
  // Newest first: the first run older than createdAfter ends the walk.
  const matches = after === undefined ? rows : rows.filter((r) => r.createdAt >= after);
  const last = rows.at(-1);
  state.cursor =
    rows.length === pageSize && matches.length === rows.length && last ? { createdAt: last.createdAt, runId: last.runId } : null;
  state.page = matches.map((r) => r.runId);
  state.position = 0;
  state.matched += matches.length;
  if (spec.dryRun) for (const r of matches) if (state.sample.length < MAX_LISTED) state.sample.push(r.runId);
}

async function finish(ports: BulkPorts, store: BulkJobStore, state: BulkJobState): Promise<"done"> {
  state.endedAt = ports.clock.now();
  await store.write(state);
  return "done";
}

function failureOf(runId: string, error: unknown): BulkFailure {
  const code = typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "internal_error";
  return { runId, code, message: error instanceof Error ? error.message : String(error) };
}

/** The job as the API shows it. */
export function viewBulkJob(state: BulkJobState): BulkJobView {
  const { spec } = state;
  return {
    jobId: spec.jobId,
    action: spec.action,
    filter: spec.filter,
    dryRun: spec.dryRun,
    state: state.endedAt === null ? "running" : "done",
    matched: state.matched,
    done: state.done,
    failed: state.failed,
    failures: state.failures,
    ...(spec.dryRun ? { sample: state.sample } : {}),
    createdAt: spec.createdAt,
    ...(state.endedAt !== null ? { endedAt: state.endedAt } : {}),
  };
}

/** `key:value` as the index's tag filter (the value may hold colons: the key is up to the first). */
function tagOf(filter: string): { key: string; value: string } {
  const at = filter.indexOf(":");
  return { key: filter.slice(0, at), value: filter.slice(at + 1) };
}
