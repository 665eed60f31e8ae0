/**
 * Forks (issue 29): a 10-step chain of ai.generate steps on a model that answers after 50 ms (and
 * again after 200 ms: a fast model's answer is the fork's fixed cost, a slower one's is what the
 * fork saves), then a fork that changes the last step's prompt (`POST /v1/runs/{id}/fork?wait=60`).
 * Only that step may call the model; the other nine reuse the original's recorded results.
 * Target: the fork costs at most 15% of the original's wall time and model tokens.
 */
import type { BenchClient, BenchRun, ModelCalls } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize } from "./support/stats.ts";

const STEPS = 10;
const SLOTS = ["bench-50ms", "bench-200ms"] as const;

type ForkAnswer = {
  run?: { runId: string; status: string; eventCount: number };
  plan?: { steps: { action: string }[] };
  error?: { code: string; message: string };
};
type ForkRep = {
  ms: number;
  /** The same fork with `?dryRun=true`: the route's own work (read the source, edit, validate, plan) without the run. */
  planMs: number;
  /** The fork's first to last event, inside its run object. */
  inObjectMs: number;
  status: string;
  modelCalls: number;
  tokens: number;
  reused: number;
  originalMs: number;
  originalTokens: number;
};

const tokensOf = (c: { inputTokens: number; outputTokens: number }) => c.inputTokens + c.outputTokens;

export const fork: Scenario = {
  id: "fork",
  title: `Fork: a ${STEPS}-step run on a 50 ms and on a 200 ms model, then a fork that changes its last step`,
  async run(ctx) {
    const api = await ctx.client();
    const rows: Row[] = [];
    const notes: string[] = [];
    const raw: Record<string, ForkRep[]> = {};
    for (const slot of SLOTS) {
      const reps = await forkReps(api, slot, ctx.reps, notes, ctx.log);
      raw[slot] = reps;
      rows.push(...forkRows(reps, slot.replace("bench-", "")));
    }
    return { repetitions: ctx.reps, rows, notes, raw };
  },
};

async function forkReps(api: BenchClient, slot: string, count: number, notes: string[], log: (line: string) => void): Promise<ForkRep[]> {
  const shape = { kind: "model-chain", n: STEPS, slot };
  const reps: ForkRep[] = [];
  for (let i = 0; i < count; i++) {
    const original = await api.ok<BenchRun>("POST", "/bench/run", { shape, input: { topic: `fork ${i}` } });
    if (original.status !== "completed") throw new Error(`run ${original.runId} ended ${original.status}`);
    const dry = await api.call<ForkAnswer>("POST", `/v1/runs/${original.runId}/fork?dryRun=true`, {
      steps: { [`s${STEPS}`]: { with: { prompt: `The last step, rewritten, about {{ input.topic }} (${i}).` } } },
    });
    const before = await api.ok<ModelCalls>("GET", "/bench/model-calls");
    const edit = { steps: { [`s${STEPS}`]: { with: { prompt: `The last step, rewritten, about {{ input.topic }} (${i}).` } } } };
    const answer = await api.call<ForkAnswer>("POST", `/v1/runs/${original.runId}/fork?wait=60`, edit);
    const after = await api.ok<ModelCalls>("GET", "/bench/model-calls");
    if (!answer.body.run) throw new Error(`fork of ${original.runId} → ${answer.status}: ${JSON.stringify(answer.body.error)}`);
    const events = await api.ok<{ events: { at: number }[] }>("GET", `/v1/runs/${answer.body.run.runId}/events?limit=1000`);
    const rep: ForkRep = {
      ms: answer.ms,
      planMs: dry.ms,
      inObjectMs: (events.events.at(-1)?.at ?? 0) - (events.events[0]?.at ?? 0),
      status: answer.body.run.status,
      modelCalls: after.total - before.total,
      tokens: tokensOf(after) - tokensOf(before),
      reused: answer.body.plan?.steps.filter((s) => s.action === "reuse").length ?? 0,
      originalMs: original.wallMs,
      originalTokens: original.inputTokens + original.outputTokens,
    };
    if (rep.status !== "completed") notes.push(`fork of ${original.runId} ended ${rep.status}`);
    reps.push(rep);
    log(
      `rep ${i + 1}: original ${original.wallMs} ms, ${original.modelCalls} calls; fork ${rep.ms.toFixed(0)} ms (plan ${rep.planMs.toFixed(0)}, in object ${rep.inObjectMs}), ${rep.modelCalls} calls, ${rep.reused} reused`,
    );
  }
  return reps;
}

function forkRows(reps: ForkRep[], model: string): Row[] {
  const timeShare = summarize(reps.map((r) => r.ms / r.originalMs));
  const tokenShare = summarize(reps.map((r) => r.tokens / r.originalTokens));
  const pct = (s: ReturnType<typeof summarize>) =>
    `${(s.median * 100).toFixed(1)}% (${(s.min * 100).toFixed(1)}–${(s.max * 100).toFixed(1)}%)`;
  const rows: Row[] = [
    { figure: "original: ms from trigger to end", ours: cell(summarize(reps.map((r) => r.originalMs)), 0) },
    { figure: "original: model tokens", ours: cell(summarize(reps.map((r) => r.originalTokens)), 0) },
    { figure: "fork (POST …/fork?wait=60, answered at its end): ms", ours: cell(summarize(reps.map((r) => r.ms)), 0) },
    { figure: "of which: the plan alone (?dryRun=true): ms", ours: cell(summarize(reps.map((r) => r.planMs)), 0) },
    {
      figure: "of which: the fork run inside its object, first to last event: ms",
      ours: cell(summarize(reps.map((r) => r.inObjectMs)), 0),
    },
    {
      figure: "fork: model calls",
      ours: cell(summarize(reps.map((r) => r.modelCalls)), 0),
      target: "1",
      met: reps.every((r) => r.modelCalls === 1),
    },
    {
      figure: "fork: steps reused",
      ours: cell(summarize(reps.map((r) => r.reused)), 0),
      target: String(STEPS - 1),
      met: reps.every((r) => r.reused === STEPS - 1),
    },
    { figure: "fork wall time / original's", ours: pct(timeShare), target: "≤ 15%", met: timeShare.median <= 0.15 },
    { figure: "fork model tokens / original's", ours: pct(tokenShare), target: "≤ 15%", met: tokenShare.median <= 0.15 },
  ];
  return rows.map((row) => ({ ...row, figure: `${model} model: ${row.figure}` }));
}

await runAlone(fork, import.meta.main);
