/** The tenant's run index as `GET /v1/runs` pages it: what a client sees when it lists its runs. */
import type { BenchClient } from "./bench-client.ts";
import type { RunEnd } from "./burst-load.ts";
import { ENDED } from "./run-starts.ts";

export type RunSummary = { runId: string; workflowId: string; status: string; createdAt: number; updatedAt: number };

const PAGE = 200;

/**
 * Every run of `workflowId` the index lists, newest first, following `nextCursor`; paging stops at
 * the first page that holds only runs created before `since` (epoch ms). A run listed on two pages
 * appears twice: callers count that as a duplicate.
 */
export async function listRuns(api: BenchClient, workflowId: string, since: number): Promise<{ runs: RunSummary[]; pages: number }> {
  const runs: RunSummary[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: URLSearchParams = new URLSearchParams({ workflow: workflowId, limit: String(PAGE), ...(cursor ? { cursor } : {}) });
    const page: { runs: RunSummary[]; nextCursor: string | null } = await api.ok<{ runs: RunSummary[]; nextCursor: string | null }>(
      "GET",
      `/v1/runs?${query}`,
    );
    pages += 1;
    runs.push(...page.runs);
    cursor = page.runs.some((r) => r.createdAt >= since) ? page.nextCursor : null;
  } while (cursor);
  return { runs, pages };
}

/** A drain's bulk read of our runs: each listed run's status and, once ended, its row's last write as its end. */
export function indexEnds(api: BenchClient, workflowId: string, since: number) {
  return async (): Promise<Map<string, RunEnd>> => {
    const { runs } = await listRuns(api, workflowId, since);
    return new Map(runs.map((r) => [r.runId, { status: r.status, endedAt: ENDED.has(r.status) ? r.updatedAt : null }]));
  };
}
