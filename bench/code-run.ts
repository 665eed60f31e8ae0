/**
 * Scenario — code.run latency, warm and cold, in the real Worker Loader (timed inside workerd).
 * Since issue 24 a warm isolate serves one run of one tenant, one call at a time: a run's first
 * call of a code loads an isolate (cold), its later calls reuse it (warm), and concurrent calls of
 * one run take isolates of their own. Before, every call after the very first of a code, in any
 * run of any tenant, was warm: the added cost is (cold − warm) once per run and code.
 */
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize } from "./support/stats.ts";
import { workerdMemoryMiB } from "./support/workerd-memory.ts";

const CALLS = 20;
const WIDTH = 4;
/** Runs whose first calls are made in a row, twice, to see what the loader keeps of their isolates. */
const MANY = 300;

type Latency = { cold: number[]; warm: number[]; rounds: number[][]; held: number };

export const codeRun: Scenario = {
  id: "code-run",
  title: "code.run latency: a run's first call (cold isolate) vs its later calls (warm), and concurrent calls of one run",
  async run(ctx) {
    const api = await ctx.client();
    // One untimed round: the first isolate load of the process compiles the runner.
    await api.ok<Latency>("POST", "/bench/code-run/latency", { calls: 2, width: 2 });
    const reps: Latency[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      const r = await api.ok<Latency>("POST", "/bench/code-run/latency", { calls: CALLS, width: WIDTH });
      reps.push(r);
      ctx.log(
        `rep ${i + 1}: cold ${summarize(r.cold).median.toFixed(1)} ms, warm ${summarize(r.warm).median.toFixed(1)} ms, ${WIDTH} concurrent (first round) ${r.rounds[0]?.[0]?.toFixed(1)} ms, later ${r.rounds[2]?.[0]?.toFixed(1)} ms; held after: ${r.held}`,
      );
    }
    // What a long-lived local Worker keeps of many runs' isolates (the loader's cache), from outside.
    const group = (await ctx.dev()).processGroup;
    const memory = [await workerdMemoryMiB(group)];
    for (let round = 0; round < 2; round++) {
      const r = await api.ok<{ ms: number }>("POST", "/bench/code-run/many-runs", { runs: MANY });
      memory.push(await workerdMemoryMiB(group));
      ctx.log(`${MANY} more runs' first calls in ${r.ms.toFixed(0)} ms; workerd anon ${memory.at(-1)?.anon.toFixed(0)} MiB`);
    }
    const anon = memory.map((m) => m?.anon ?? Number.NaN);
    const cold = summarize(reps.flatMap((r) => r.cold));
    const warm = summarize(reps.flatMap((r) => r.warm));
    const firstRound = summarize(reps.map((r) => r.rounds[0]?.[0] ?? Number.NaN));
    const laterRounds = summarize(reps.flatMap((r) => r.rounds.slice(1).map((round) => round[0] ?? Number.NaN)));
    const rows: Row[] = [
      { figure: "code.run, a run's first call of a code (cold isolate), ms", ours: cell(cold, 1) },
      { figure: "code.run, a later call of the same run (warm isolate), ms", ours: cell(warm, 1) },
      {
        figure: "added per run and code since isolates are per run (cold − warm, medians), ms",
        ours: (cold.median - warm.median).toFixed(1),
      },
      { figure: `${WIDTH} concurrent calls of one run, first time (slots load), ms`, ours: cell(firstRound, 1) },
      { figure: `${WIDTH} concurrent calls of one run, slots warm, ms`, ours: cell(laterRounds, 1) },
      {
        figure: `workerd anonymous memory: before, after ${MANY}, after ${2 * MANY} runs' first calls, MiB`,
        ours: anon.every(Number.isFinite) ? anon.map((x) => x.toFixed(0)).join(" → ") : "n/a (no /proc)",
      },
      {
        figure: "warm isolates still held after the calls",
        ours: String(Math.max(...reps.map((r) => r.held))),
        target: "0",
        met: reps.every((r) => r.held === 0),
      },
    ];
    return {
      repetitions: ctx.reps,
      rows,
      notes: [
        `${CALLS} sequential calls per repetition each cold and warm; ${WIDTH} concurrent calls in 3 rounds. Before issue 24 every call but the first of a code in the whole Worker isolate was warm (shared across runs and tenants).`,
      ],
      raw: { reps, memory },
    };
  },
};

await runAlone(codeRun, import.meta.main);
