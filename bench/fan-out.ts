/**
 * Scenario 3 — fan-out. 16 independent ai.generate steps on a model that answers after 200 ms
 * (joined by a no-op tool.call, since LWIR has one terminal step), against one such step (with the
 * same join) and against the 16 steps chained.
 */
import type { BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize, times } from "./support/stats.ts";

const WIDTH = 16;
const SLOT = "bench-200ms";

export const fanOut: Scenario = {
  id: "fan-out",
  title: `Fan-out: ${WIDTH} independent ai.generate steps, model latency 200 ms`,
  async run(ctx) {
    const api = await ctx.client();
    const run = async (shape: Record<string, unknown>) => {
      const r = await api.ok<BenchRun>("POST", "/bench/run", { shape, input: { topic: "fan-out" } });
      if (r.status !== "completed") throw new Error(`run ${r.runId} ended ${r.status}: ${JSON.stringify(r.cause)}`);
      return r;
    };
    await run({ kind: "model-parallel", n: 2, slot: SLOT });
    const raw = { one: [] as BenchRun[], fanned: [] as BenchRun[], chained: [] as BenchRun[] };
    for (let i = 0; i < ctx.reps; i++) {
      raw.one.push(await run({ kind: "model-parallel", n: 1, slot: SLOT }));
      raw.fanned.push(await run({ kind: "model-parallel", n: WIDTH, slot: SLOT }));
      raw.chained.push(await run({ kind: "model-chain", n: WIDTH, slot: SLOT }));
      ctx.log(
        `rep ${i + 1}: one ${raw.one.at(-1)?.engineMs} ms, ${WIDTH} fanned ${raw.fanned.at(-1)?.engineMs} ms, chained ${raw.chained.at(-1)?.engineMs} ms`,
      );
    }
    const vsOne = summarize(raw.fanned.map((r, i) => r.engineMs / (raw.one[i]?.engineMs ?? Number.NaN)));
    const vsChain = summarize(raw.fanned.map((r, i) => r.engineMs / (raw.chained[i]?.engineMs ?? Number.NaN)));
    const rows: Row[] = [
      { figure: "1 step (+ join): ms from trigger to end", ours: cell(summarize(raw.one.map((r) => r.engineMs)), 0) },
      { figure: `${WIDTH} independent steps (+ join): ms`, ours: cell(summarize(raw.fanned.map((r) => r.engineMs)), 0) },
      { figure: `${WIDTH} chained steps: ms`, ours: cell(summarize(raw.chained.map((r) => r.engineMs)), 0) },
      {
        figure: `${WIDTH} fanned / 1 step`,
        ours: `${times(vsOne.median)} (${times(vsOne.min)}–${times(vsOne.max)})`,
        ratio: times(vsOne.median),
        target: "≤ 1.5×",
        met: vsOne.median <= 1.5,
      },
      { figure: `${WIDTH} fanned / ${WIDTH} chained`, ours: `${times(vsChain.median)} (${times(vsChain.min)}–${times(vsChain.max)})` },
      { figure: `model calls per fanned run`, ours: cell(summarize(raw.fanned.map((r) => r.modelCalls)), 0) },
    ];
    const notes = [
      `The bench workflow sets maxConcurrency ${WIDTH}; the default is 6 (the production limit of outgoing connections per invocation), with which 16 steps take three waves.`,
    ];
    return { repetitions: ctx.reps, rows, notes, raw };
  },
};

await runAlone(fanOut, import.meta.main);
