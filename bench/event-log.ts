/**
 * Scenario 4 — event log scale. One run that appends over 10,000 events (no-op tool.call steps
 * fanned out over 1,000 items, chained): its append rate inside the object (events over the time
 * between its first and last event, stamped by the object), then paging through all of its events
 * over the API, 1,000 per page. Also the event log adapter alone, appending in batches of 1, 10
 * and 100 inside a fresh object: the floor under the run's rate.
 */
import type { BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, percentile, summarize } from "./support/stats.ts";

const ITEMS = 1_000;
const FAN_OUT_STEPS = 4;
const PAGE = 1_000;
const BATCHES = [
  { batch: 1, count: 2_000 },
  { batch: 10, count: 10_000 },
  { batch: 100, count: 10_000 },
];

type Append = { events: number; batch: number; ms: number };

export const eventLog: Scenario = {
  id: "event-log",
  title: "Event log scale: one run of over 10,000 events; appends inside the object; paging over the API",
  async run(ctx) {
    const api = await ctx.client();
    const items = Array.from({ length: ITEMS }, (_, i) => i);
    const run = await api.ok<BenchRun>("POST", "/bench/run", { shape: { kind: "noop-fan-out", n: FAN_OUT_STEPS }, input: { items } });
    if (run.status !== "completed") throw new Error(`run ${run.runId} ended ${run.status}: ${JSON.stringify(run.cause)}`);
    const runRate = (run.eventCount / run.inObjectMs) * 1_000;
    ctx.log(`run ${run.runId}: ${run.eventCount} events in ${run.inObjectMs} ms (${runRate.toFixed(0)} events/s)`);

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
    for (const { batch, count } of BATCHES) {
      appends[batch] = [];
      for (let i = 0; i < ctx.reps; i++) appends[batch].push(await api.ok<Append>("POST", "/bench/append", { count, batch }));
      ctx.log(`adapter, batches of ${batch}: ${appends[batch].map((a) => ((a.events / a.ms) * 1_000).toFixed(0)).join(", ")} events/s`);
    }
    const rate = (a: Append) => (a.events / a.ms) * 1_000;
    const fullPages = passes.flatMap((p) => p.pages.slice(0, Math.floor(p.events / PAGE)));
    const rows: Row[] = [
      {
        figure: `run: events appended per second inside the object (${run.eventCount} events)`,
        ours: `${runRate.toFixed(0)}`,
        target: "≥ 10,000/s",
        met: runRate >= 10_000,
      },
      {
        figure: `page of ${PAGE} events over the API: ms`,
        ours: `${cell(summarize(fullPages), 1)}; p99 ${percentile(fullPages, 99).toFixed(1)}`,
        target: "< 100 ms",
        met: summarize(fullPages).median < 100,
      },
      { figure: `all ${run.eventCount} events over the API: ms`, ours: cell(summarize(passes.map((p) => p.totalMs)), 0) },
      ...BATCHES.map(({ batch, count }) => ({
        figure: `event log adapter alone, batches of ${batch} (${count} events): events/s`,
        ours: cell(summarize((appends[batch] ?? []).map(rate)), 0),
      })),
    ];
    return { repetitions: ctx.reps, rows, notes: [], raw: { run, pagesMs: allPages, passes, appends } };
  },
};

await runAlone(eventLog, import.meta.main);
