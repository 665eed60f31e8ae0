/**
 * Part of scenario 4 (event log scale): one run of 100,000 events at rest — appended inside its
 * object through the run's own log, checkpointing its fold — then read over the production API:
 * every event in pages of 1,000 (`GET /v1/runs/:id/events`) and the run itself a few times
 * (`GET /v1/runs/:id`), with workerd's memory before, after each quarter appended and after reading.
 */
import type { BenchClient } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { cell, percentile, summarize } from "./support/stats.ts";
import { type WorkerdMemory, workerdMemoryMiB } from "./support/workerd-memory.ts";

export const LONG_RUN_EVENTS = 100_000;
const BATCH = 100;
const PAGE = 1_000;
const VIEWS = 5;
/** What workerd's anonymous memory may grow past the first quarter of the log and still count as flat: under the log's own payloads. */
const FLAT_MIB = 32;

type Mem = WorkerdMemory | null;

type Fill = { runId: string; events: number; appended: number; batch: number; ms: number; payloadBytes: number; checkpointSeq: number };

export type LongRun = {
  runId: string;
  fills: Fill[];
  pagesMs: number[];
  viewsMs: number[];
  eventCount: number;
  status: string;
  /** workerd's memory: before, after each quarter of the appends, after paging and viewing, after one whole-log read. */
  memoryMiB: { before: Mem; appended: Mem[]; read: Mem; wholeLog: Mem };
};

/** Appends the run's events in four quarters, workerd's memory read after each. */
async function fillInQuarters(api: BenchClient, memory: () => Promise<Mem>, log: (m: string) => void) {
  const fills: Fill[] = [];
  const appended: Mem[] = [];
  let runId: string | undefined;
  for (let q = 0; q < 4; q++) {
    const count = LONG_RUN_EVENTS / 4 - (q === 0 ? 1 : 0);
    const fill: Fill = await api.ok<Fill>("POST", "/bench/long-runs", { ...(runId ? { runId } : {}), count, batch: BATCH });
    runId = fill.runId;
    fills.push(fill);
    appended.push(await memory());
    log(
      `long run ${fill.runId}: ${fill.events} events (+${fill.appended} in ${fill.ms.toFixed(0)} ms), checkpoint at ${fill.checkpointSeq}, workerd ${show(appended.at(-1))}`,
    );
  }
  return { runId: runId as string, fills, appended };
}

async function pageAll(api: BenchClient, base: string): Promise<{ pagesMs: number[]; read: number }> {
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
    if (page.body.nextAfter === null) return { pagesMs, read };
    after = page.body.nextAfter;
  }
}

export async function measureLongRun(api: BenchClient, processGroup: number | null, log: (m: string) => void): Promise<LongRun> {
  const memory = () => workerdMemoryMiB(processGroup);
  const before = await memory();
  const { runId, fills, appended } = await fillInQuarters(api, memory, log);
  const base = `/bench/long-runs/v1/runs/${runId}`;
  const { pagesMs, read } = await pageAll(api, base);
  if (read !== LONG_RUN_EVENTS) throw new Error(`long run: paged ${read} events of ${LONG_RUN_EVENTS}`);
  const viewsMs: number[] = [];
  let view = { eventCount: 0, status: "" };
  for (let i = 0; i < VIEWS; i++) {
    const answer = await api.call<{ run: { eventCount: number; status: string } }>("GET", base);
    if (answer.status !== 200) throw new Error(`long run: GET /v1/runs/:id answered ${answer.status}`);
    viewsMs.push(answer.ms);
    view = answer.body.run;
  }
  if (view.eventCount !== LONG_RUN_EVENTS) throw new Error(`long run: the view counts ${view.eventCount} events of ${LONG_RUN_EVENTS}`);
  const afterRead = await memory();
  await api.ok("POST", `/bench/long-runs/${runId}/read-all`, {});
  const wholeLog = await memory();
  log(`long run: ${pagesMs.length} pages, views ${viewsMs.map((ms) => ms.toFixed(1)).join(", ")} ms`);
  log(`long run: workerd ${[before, ...appended, afterRead, wholeLog].map(show).join(" → ")}`);
  return {
    runId,
    fills,
    pagesMs,
    viewsMs,
    eventCount: view.eventCount,
    status: view.status,
    memoryMiB: { before, appended, read: afterRead, wholeLog },
  };
}

function show(m: Mem | undefined): string {
  return m ? `RSS ${m.rss.toFixed(0)} MiB (anonymous ${m.anon.toFixed(0)})` : "memory n/a";
}
const anon = (m: Mem | undefined) => (m ? m.anon.toFixed(0) : "n/a");
const rss = (m: Mem | undefined) => (m ? m.rss.toFixed(0) : "n/a");

export function longRunRows(r: LongRun): Row[] {
  const n = LONG_RUN_EVENTS.toLocaleString("en-US");
  const { before, appended, read, wholeLog } = r.memoryMiB;
  const ms = r.fills.reduce((sum, f) => sum + f.ms, 0);
  const events = r.fills.reduce((sum, f) => sum + f.appended, 0);
  const payloadMiB = r.fills.reduce((sum, f) => sum + f.payloadBytes, 0) / 1_048_576;
  const firstQuarter = appended[0] ?? null;
  // Flat: what the last three quarters of the log and reading all of it add to the anonymous memory, against the first quarter.
  const growth = firstQuarter && read ? read.anon - firstQuarter.anon : null;
  return [
    {
      figure: `${n}-event run: appended inside its object through the run's log, ${BATCH} per append (fold checkpoints included): events/s`,
      ours: ((events / ms) * 1_000).toFixed(0),
      target: "≥ 10,000/s",
      met: (events / ms) * 1_000 >= 10_000,
    },
    {
      figure: `${n}-event run: page of ${PAGE.toLocaleString("en-US")} events over the API: ms`,
      ours: `${cell(summarize(r.pagesMs), 1)}; p99 ${percentile(r.pagesMs, 99).toFixed(1)}`,
      target: "< 100 ms",
      met: summarize(r.pagesMs).median < 100,
    },
    { figure: `${n}-event run: GET /v1/runs/:id (a checkpoint and the events after it): ms`, ours: cell(summarize(r.viewsMs), 1) },
    {
      figure: `${n}-event run: workerd anonymous memory (RssAnon) before / after each 25,000 appended / after paging it all and 5 views: MiB (payloads ${payloadMiB.toFixed(0)} MiB)`,
      ours: `${anon(before)} / ${appended.map(anon).join(" / ")} / ${anon(read)}`,
      target: `flat: < ${FLAT_MIB} MiB more than after the first 25,000`,
      ...(growth !== null ? { met: growth < FLAT_MIB } : {}),
    },
    {
      figure: `${n}-event run: workerd VmRSS at the same points: MiB`,
      ours: `${rss(before)} / ${appended.map(rss).join(" / ")} / ${rss(read)}`,
    },
    {
      figure: `${n}-event run: workerd anonymous memory / VmRSS after reading its whole log once in the object (what status() did before checkpoints): MiB`,
      ours: `${anon(wholeLog)} / ${rss(wholeLog)}`,
    },
  ];
}
