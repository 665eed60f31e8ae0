/**
 * Scenario 2 — replay. A run of 50 chained ai.generate steps whose model answers after 50 ms;
 * then the same run id again: its log, without the terminal event (what a crash just before
 * `RunCompleted` leaves), is loaded into a fresh run object whose alarm — the production drive
 * loop — replays it to the end. Also shown: starting the same run id again over the API, which
 * answers the recorded run without driving anything.
 */
import type { BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize, times } from "./support/stats.ts";

const STEPS = 50;
const SLOT = "bench-50ms";

type Replay = { replayMs: number; modelCalls: number; status: string; sameOutput: boolean; eventsLoaded: number; eventsAfter: number };

export const replay: Scenario = {
  id: "replay",
  title: `Replay: a ${STEPS}-step run on a 50 ms model, then the same run id again`,
  async run(ctx) {
    const api = await ctx.client();
    const shape = { kind: "model-chain", n: STEPS, slot: SLOT };
    const raw = { first: [] as BenchRun[], replays: [] as Replay[], again: [] as { ms: number; status: number; modelCalls: number }[] };
    const notes: string[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      const first = await api.ok<BenchRun>("POST", "/bench/run", { shape, input: { topic: `replay ${i}` } });
      if (first.status !== "completed") throw new Error(`run ${first.runId} ended ${first.status}: ${JSON.stringify(first.cause)}`);
      const replayed = await api.ok<Replay>("POST", "/bench/replay", { runId: first.runId });
      if (replayed.status !== "completed" || !replayed.sameOutput)
        notes.push(`replay of ${first.runId} ended ${replayed.status}, same output: ${replayed.sameOutput}`);
      // The same run id over the API: the finished run is answered as it is.
      const lwir = await api.ok<{ lwir: unknown }>("POST", "/bench/lwir", { shape });
      const before = await api.ok<{ total: number }>("GET", "/bench/model-calls");
      const again = await api.call<{ run?: { status: string } }>("POST", "/v1/lwir/runs", {
        lwir: lwir.lwir,
        input: { topic: `replay ${i}` },
        runId: first.runId,
      });
      const after = await api.ok<{ total: number }>("GET", "/bench/model-calls");
      raw.first.push(first);
      raw.replays.push(replayed);
      raw.again.push({ ms: again.ms, status: again.status, modelCalls: after.total - before.total });
      ctx.log(
        `rep ${i + 1}: first ${first.engineMs} ms, ${first.modelCalls} model calls; replay ${replayed.replayMs.toFixed(0)} ms, ${replayed.modelCalls} model calls`,
      );
    }
    const firstMs = summarize(raw.first.map((r) => r.engineMs));
    const replayMs = summarize(raw.replays.map((r) => r.replayMs));
    const shares = summarize(raw.replays.map((r, i) => r.replayMs / (raw.first[i]?.engineMs ?? Number.NaN)));
    const replayCalls = summarize(raw.replays.map((r) => r.modelCalls));
    const rows: Row[] = [
      { figure: "first run: ms from trigger to end", ours: cell(firstMs, 0) },
      { figure: "first run: model calls", ours: cell(summarize(raw.first.map((r) => r.modelCalls)), 0) },
      { figure: "replay: ms (alarm inside the object)", ours: cell(replayMs, 0) },
      { figure: "replay: model calls", ours: cell(replayCalls, 0), target: "0", met: replayCalls.max === 0 },
      {
        figure: "replay time / first run time",
        ours: `${(shares.median * 100).toFixed(1)}% (${(shares.min * 100).toFixed(1)}–${(shares.max * 100).toFixed(1)}%)`,
        ratio: times(shares.median, 3),
        target: "< 5%",
        met: shares.median < 0.05,
      },
      {
        figure: "same run id started again over the API (answers the finished run): ms, model calls",
        ours: `${cell(summarize(raw.again.map((a) => a.ms)), 1)}, ${cell(summarize(raw.again.map((a) => a.modelCalls)), 0)}`,
      },
      { figure: "events in the log", ours: cell(summarize(raw.replays.map((r) => r.eventsAfter)), 0) },
    ];
    if (raw.again.some((a) => a.status !== 200))
      notes.push(`starting the same run id again answered ${[...new Set(raw.again.map((a) => a.status))].join(", ")}`);
    return { repetitions: ctx.reps, rows, notes, raw };
  },
};

await runAlone(replay, import.meta.main);
