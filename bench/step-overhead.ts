/**
 * Scenario 1 — per-step engine overhead vs Cloudflare Workflows. The same chain of no-op steps as
 * an LWIR run (tool.call steps on a tool that returns at once; `POST /v1/lwir/runs`, no planner)
 * and as a WorkflowEntrypoint of `step.do` calls, in the same `wrangler dev`, each timed inside
 * the process from the trigger to its last step. Per step = (T(100) − T(1)) / 99, so the fixed
 * cost of starting a run is not spread over the steps; T(100) / 100 is shown too.
 */
import type { BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize, times } from "./support/stats.ts";

const STEPS = 100;
type PeerRun = { engineMs: number; createdMs: number; firstLineMs: number; wallMs: number };

export const stepOverhead: Scenario = {
  id: "step-overhead",
  title: `Per-step engine overhead: ${STEPS} no-op steps, LWIR run vs Cloudflare Workflows`,
  async run(ctx) {
    const api = await ctx.client();
    const ours = async (n: number) => {
      const r = await api.ok<BenchRun>("POST", "/bench/run", { shape: { kind: "noop-chain", n }, input: {} });
      if (r.status !== "completed") throw new Error(`no-op chain run ${r.runId} ended ${r.status}: ${JSON.stringify(r.cause)}`);
      return r;
    };
    const peer = (steps: number) => api.ok<PeerRun>("POST", "/bench/peer", { steps });
    // One untimed round of each, so neither side pays for first-use compilation in the figures.
    await ours(2);
    await peer(2);
    const raw = { ours100: [] as BenchRun[], ours1: [] as BenchRun[], peer100: [] as PeerRun[], peer1: [] as PeerRun[] };
    for (let i = 0; i < ctx.reps; i++) {
      raw.ours100.push(await ours(STEPS));
      raw.ours1.push(await ours(1));
      raw.peer100.push(await peer(STEPS));
      raw.peer1.push(await peer(1));
      ctx.log(
        `rep ${i + 1}: ours ${raw.ours100.at(-1)?.engineMs} ms / ${STEPS} steps, ${raw.ours1.at(-1)?.engineMs} ms / 1; Workflows ${raw.peer100.at(-1)?.engineMs} ms / ${STEPS}, ${raw.peer1.at(-1)?.engineMs} ms / 1`,
      );
    }
    // Pairs within one repetition share the machine's state at that moment.
    const perStep = (t100: number, t1: number) => (t100 - t1) / (STEPS - 1);
    const oursStep = raw.ours100.map((r, i) => perStep(r.engineMs, raw.ours1[i]?.engineMs ?? 0));
    const peerStep = raw.peer100.map((r, i) => perStep(r.engineMs, raw.peer1[i]?.engineMs ?? 0));
    const ratios = oursStep.map((o, i) => o / (peerStep[i] ?? Number.NaN));
    const ratio = summarize(ratios);
    const eventsPerStep = summarize(raw.ours100.map((r, i) => (r.eventCount - (raw.ours1[i]?.eventCount ?? 0)) / (STEPS - 1)));
    const rows: Row[] = [
      {
        figure: "ms per step, (T(100) − T(1)) / 99",
        ours: cell(summarize(oursStep), 2),
        peer: cell(summarize(peerStep), 2),
        ratio: `${times(ratio.median)} (${times(ratio.min)}–${times(ratio.max)})`,
        target: "ratio ≤ 0.5×",
        met: ratio.median <= 0.5,
      },
      {
        figure: `ms per step, T(${STEPS}) / ${STEPS}`,
        ours: cell(summarize(raw.ours100.map((r) => r.engineMs / STEPS)), 2),
        peer: cell(summarize(raw.peer100.map((r) => r.engineMs / STEPS)), 2),
        ratio: times(summarize(raw.ours100.map((r) => r.engineMs)).median / summarize(raw.peer100.map((r) => r.engineMs)).median),
      },
      {
        figure: `ms from trigger to end, ${STEPS} steps`,
        ours: cell(summarize(raw.ours100.map((r) => r.engineMs)), 0),
        peer: cell(summarize(raw.peer100.map((r) => r.engineMs)), 0),
      },
      {
        figure: "ms from trigger to end, 1 step",
        ours: cell(summarize(raw.ours1.map((r) => r.engineMs)), 0),
        peer: cell(summarize(raw.peer1.map((r) => r.engineMs)), 0),
      },
      { figure: "events logged per step", ours: cell(eventsPerStep, 1) },
    ];
    return { repetitions: ctx.reps, rows, notes: [], raw };
  },
};

await runAlone(stepOverhead, import.meta.main);
