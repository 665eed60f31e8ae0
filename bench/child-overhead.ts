/**
 * A child run's overhead (workflow.run): a parent whose one step runs bench.noop as a child run
 * (`POST /v1/lwir/runs`; the child is planned by the offline model and runs a no-op tool). The
 * overhead is the parent step's time (its StepStarted to its StepSucceeded) minus the child's own
 * time (its RunRequested to its RunCompleted), all read from the two logs inside the process: the
 * child's start through the start service, the parent's wait, the child's notification and the
 * parent's wake. Target: ≤ 20 ms.
 */
import type { BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import type { Scenario } from "./support/scenario.ts";
import { cell, summarize } from "./support/stats.ts";

type Family = { stepMs: number; childMs: number; status: string; breakdown: Record<string, number> };

export const childOverhead: Scenario = {
  id: "child-overhead",
  title: "A child run's overhead: a workflow.run step's time minus the child run's own",
  async run(ctx) {
    const api = await ctx.client();
    const once = async (): Promise<Family> => {
      const r = await api.ok<BenchRun>("POST", "/bench/run", { shape: { kind: "child-call", n: 1 }, input: {} });
      if (r.status !== "completed") throw new Error(`child-call run ${r.runId} ended ${r.status}: ${JSON.stringify(r.cause)}`);
      return api.ok<Family>("POST", "/bench/child-times", { runId: r.runId });
    };
    await once();
    const raw: Family[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      raw.push(await once());
      const last = raw.at(-1) as Family;
      ctx.log(
        `rep ${i + 1}: step ${last.stepMs} ms, child ${last.childMs} ms, overhead ${last.stepMs - last.childMs} ms ${JSON.stringify(last.breakdown)}`,
      );
    }
    const overhead = summarize(raw.map((f) => f.stepMs - f.childMs));
    const rows: Row[] = [
      { figure: "parent step (workflow.run), ms", ours: cell(summarize(raw.map((f) => f.stepMs)), 0) },
      { figure: "child run's own time, ms", ours: cell(summarize(raw.map((f) => f.childMs)), 0) },
      { figure: "overhead: step − child, ms", ours: cell(overhead, 0), target: "≤ 20 ms", met: overhead.median <= 20 },
      ...Object.keys(raw[0]?.breakdown ?? {}).map((part) => ({
        figure: `  of which ${part}, ms`,
        ours: cell(summarize(raw.map((f) => f.breakdown[part] ?? Number.NaN)), 0),
      })),
    ];
    return { repetitions: ctx.reps, rows, notes: [], raw: { runs: raw } };
  },
};
