/**
 * Part of scenario 4 (event log scale): one run of 100,000 events at rest — appended inside its
 * object through the run's own log, checkpointing its fold — then read over the production API:
 * every event in pages of 1,000 (`GET /v1/runs/:id/events`) and the run itself a few times
 * (`GET /v1/runs/:id`), with workerd's resident memory before, after appending and after reading.
 */
import type { BenchClient } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { cell, percentile, summarize } from "./support/stats.ts";
import { workerdRssMiB } from "./support/workerd-memory.ts";

export const LONG_RUN_EVENTS = 100_000;
const BATCH = 100;
const PAGE = 1_000;
const VIEWS = 5;
/** Growth of workerd's RSS over the whole test that still counts as flat: well under the log's own JSON. */
const FLAT_MIB = 64;

type Fill = { runId: string; events: number; batch: number; ms: number; payloadBytes: number; checkpointSeq: number };

export type LongRun = {
  fill: Fill;
  pagesMs: number[];
  viewsMs: number[];
  eventCount: number;
  status: string;
  rssMiB: { before: number | null; appended: number | null; read: number | null };
};

export async function measureLongRun(api: BenchClient, processGroup: number | null, log: (m: string) => void): Promise<LongRun> {
  const before = await workerdRssMiB(processGroup);
  const fill = await api.ok<Fill>("POST", "/bench/long-runs", { count: LONG_RUN_EVENTS, batch: BATCH });
  const appended = await workerdRssMiB(processGroup);
  log(
    `long run ${fill.runId}: ${fill.events} events (${(fill.payloadBytes / 1_048_576).toFixed(1)} MiB of payload) in ${fill.ms.toFixed(0)} ms; checkpoint at ${fill.checkpointSeq}`,
  );
  const base = `/bench/long-runs/v1/runs/${fill.runId}`;
  const pagesMs: number[] = [];
  let read = 0;
  for (let after = 0; ; ) {
    const page = await api.call<{ events: { seq: number }[]; nextAfter: number | null }>(
      "GET",
      `${base}/events?after=${after}&limit=${PAGE}`,
    );
    if (page.status !== 200) throw new Error(`long run: events page after ${after} answered ${page.status}`);
    pagesMs.push(page.ms);
    read += page.body.events.length;
    if (page.body.nextAfter === null) break;
    after = page.body.nextAfter;
  }
  if (read !== fill.events) throw new Error(`long run: paged ${read} events of ${fill.events}`);
  const viewsMs: number[] = [];
  let view = { eventCount: 0, status: "" };
  for (let i = 0; i < VIEWS; i++) {
    const answer = await api.call<{ run: { eventCount: number; status: string } }>("GET", base);
    if (answer.status !== 200) throw new Error(`long run: GET /v1/runs/:id answered ${answer.status}`);
    viewsMs.push(answer.ms);
    view = answer.body.run;
  }
  if (view.eventCount !== fill.events) throw new Error(`long run: the view counts ${view.eventCount} events of ${fill.events}`);
  const after = await workerdRssMiB(processGroup);
  log(
    `long run: ${pagesMs.length} pages, views ${viewsMs.map((ms) => ms.toFixed(1)).join(", ")} ms; workerd RSS ${before?.toFixed(0)} → ${appended?.toFixed(0)} → ${after?.toFixed(0)} MiB`,
  );
  return { fill, pagesMs, viewsMs, eventCount: view.eventCount, status: view.status, rssMiB: { before, appended, read: after } };
}

const mib = (v: number | null) => (v === null ? "n/a" : v.toFixed(0));

export function longRunRows(r: LongRun): Row[] {
  const n = r.fill.events.toLocaleString("en-US");
  const { before, appended, read } = r.rssMiB;
  const growth = before !== null && read !== null ? read - before : null;
  return [
    {
      figure: `${n}-event run: appended inside its object through the run's log, ${r.fill.batch} per append (fold checkpoints included): events/s`,
      ours: ((r.fill.events / r.fill.ms) * 1_000).toFixed(0),
      target: "≥ 10,000/s",
      met: (r.fill.events / r.fill.ms) * 1_000 >= 10_000,
    },
    {
      figure: `${n}-event run: page of ${PAGE.toLocaleString("en-US")} events over the API: ms`,
      ours: `${cell(summarize(r.pagesMs), 1)}; p99 ${percentile(r.pagesMs, 99).toFixed(1)}`,
      target: "< 100 ms",
      met: summarize(r.pagesMs).median < 100,
    },
    { figure: `${n}-event run: GET /v1/runs/:id (checkpoint + at most 999 events folded): ms`, ours: cell(summarize(r.viewsMs), 1) },
    {
      figure: `${n}-event run: workerd RSS before / after appending / after paging and viewing: MiB (payload ${(r.fill.payloadBytes / 1_048_576).toFixed(0)} MiB)`,
      ours: `${mib(before)} / ${mib(appended)} / ${mib(read)}`,
      target: `flat: grows < ${FLAT_MIB} MiB`,
      ...(growth !== null ? { met: growth < FLAT_MIB } : {}),
    },
  ];
}
