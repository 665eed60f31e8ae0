/**
 * Scenario 4 — event log scale. One run that appends over 10,000 events (no-op tool.call steps
 * fanned out over 1,000 items, chained): its append rate inside the object (events over the time
 * between its first and last event, stamped by the object), then paging through all of its events
 * over the API, 1,000 per page. Also the event log adapter alone, appending in batches of 1, 10
 * and 100 inside a fresh object: the floor under the run's rate. Last, a run of 100,000 events
 * at rest, paged and shown over the API, with workerd's memory (bench/long-run.ts).
 */
import { LONG_RUN_EVENTS, longRunRows, measureLongRun } from "./long-run.ts";
import type { BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, percentile, summarize } from "./support/stats.ts";

const ITEMS = 1_000;
/** Each branch logs StepStarted and StepSucceeded: 5 × 1,000 × 2 events, plus the run's own. */
const FAN_OUT_STEPS = 5;
const PAGE = 1_000;
/** Ways of appending measured alone: the adapter at batch sizes and writer counts, and raw inserts. */
const APPENDS: { label: string; body: Record<string, unknown> }[] = [
  { label: "event log adapter, 1 event per append (1,000 events)", body: { count: 1_000, batch: 1 } },
  { label: "event log adapter, 1 event per append, 16 concurrent writers (1,000 events)", body: { count: 1_000, batch: 1, writers: 16 } },
  {
    label: "sketch (bench only): same append with group commit, 16 concurrent writers (1,000 events)",
    body: { count: 1_000, batch: 1, writers: 16, groupCommit: true },
  },
  { label: "event log adapter, 10 events per append (10,000 events)", body: { count: 10_000, batch: 10 } },
  { label: "event log adapter, 100 events per append (10,000 events)", body: { count: 10_000, batch: 100 } },
  {
    label: "same, checkpointing the run state fold as the run object does (every step new: the state grows with the log)",
    body: { count: 10_000, batch: 100, checkpoint: true },
  },
  { label: "floor: one SQLite insert + `await storage.sync()` each (1,000)", body: { count: 1_000, floor: "sync" } },
  { label: "floor: one SQLite insert each, no sync (10,000)", body: { count: 10_000, floor: "nosync" } },
];

type Append = { events: number; batch: number; writers: number; ms: number };

export const eventLog: Scenario = {
  id: "event-log",
  title: "Event log scale: one run of over 10,000 events; appends inside the object; paging over the API",
  async run(ctx) {
    const api = await ctx.client();
    const items = Array.from({ length: ITEMS }, (_, i) => i);
    // One run's rate is one sample, and it moves with the machine's load: the run is repeated and the median reported.
    const runs: BenchRun[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      const r = await api.ok<BenchRun>("POST", "/bench/run", { shape: { kind: "noop-fan-out", n: FAN_OUT_STEPS }, input: { items } });
      if (r.status !== "completed") throw new Error(`run ${r.runId} ended ${r.status}: ${JSON.stringify(r.cause)}`);
      runs.push(r);
      ctx.log(
        `run ${r.runId}: ${r.eventCount} events in ${r.inObjectMs} ms (${((r.eventCount / r.inObjectMs) * 1_000).toFixed(0)} events/s)`,
      );
    }
    const run = runs.at(-1) as BenchRun;
    const runRates = summarize(runs.map((r) => (r.eventCount / r.inObjectMs) * 1_000));

    const passes: { pages: number[]; totalMs: number; events: number }[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      const pages: number[] = [];
      let events = 0;
      const started = performance.now();
      for (let after = 0; ; ) {
        const page = await api.call<{ events: { seq: number }[]; nextAfter: number | null }>(
          "GET",
          `/v1/runs/${run.runId}/events?after=${after}&limit=${PAGE}`,
        );
        if (page.status !== 200) throw new Error(`events page after ${after} answered ${page.status}`);
        pages.push(page.ms);
        events += page.body.events.length;
        if (page.body.nextAfter === null) break;
        after = page.body.nextAfter;
      }
      passes.push({ pages, totalMs: performance.now() - started, events });
      ctx.log(`pass ${i + 1}: ${events} events in ${pages.length} pages, ${passes.at(-1)?.totalMs.toFixed(0)} ms`);
    }
    const allPages = passes.flatMap((p) => p.pages);

    const appends: Record<string, Append[]> = {};
    for (const { label, body } of APPENDS) {
      const list: Append[] = [];
      for (let i = 0; i < ctx.reps; i++) list.push(await api.ok<Append>("POST", "/bench/append", body));
      appends[label] = list;
      ctx.log(`${label}: ${list.map((a) => ((a.events / a.ms) * 1_000).toFixed(0)).join(", ")} events/s`);
    }
    const longRun = await measureLongRun(api, (await ctx.dev()).processGroup, ctx.log);
    const rate = (a: Append) => (a.events / a.ms) * 1_000;
    const fullPages = passes.flatMap((p) => p.pages.slice(0, Math.floor(p.events / PAGE)));
    const rows: Row[] = [
      {
        figure: `run: events appended per second inside the object (${run.eventCount} events)`,
        ours: cell(runRates, 0),
        target: "≥ 10,000/s",
        met: runRates.median >= 10_000,
      },
      {
        figure: `page of ${PAGE} events over the API: ms`,
        ours: `${cell(summarize(fullPages), 1)}; p99 ${percentile(fullPages, 99).toFixed(1)}`,
        target: "< 100 ms",
        met: summarize(fullPages).median < 100,
      },
      { figure: `all ${run.eventCount} events over the API: ms`, ours: cell(summarize(passes.map((p) => p.totalMs)), 0) },
      ...APPENDS.map(({ label }) => ({ figure: `${label}: events/s`, ours: cell(summarize((appends[label] ?? []).map(rate)), 0) })),
      ...longRunRows(longRun),
    ];
    const notes = [
      `The ${LONG_RUN_EVENTS.toLocaleString("en-US")}-event run is measured once per bench run (not repeated). Its memory is the whole workerd process's, from /proc: RssAnon (the JS heaps and malloc) and VmRSS (which also counts mapped files).`,
    ];
    return { repetitions: ctx.reps, rows, notes, raw: { run, runs, pagesMs: allPages, passes, appends, longRun } };
  },
};

await runAlone(eventLog, import.meta.main);
