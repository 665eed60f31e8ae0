/**
 * Scenario 6 — plan once, run many. 20 runs of one definition (the seed workflow, offline
 * planner) as triggered normally, each planned; then the definition approved, one of those
 * versions pinned (`POST /v1/definitions/:hash/approve`, `POST /v1/definitions/:hash/pin`), and
 * 20 more runs, which execute the pinned version without a planner. Planner calls, tokens and time
 * per run. When the pin routes are not there (404), the pinned half is reported unavailable.
 */
import type { BenchClient, BenchRun } from "./support/bench-client.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize, times } from "./support/stats.ts";

const WORKFLOW = "support.summarize-ticket";
const RUNS = 20;
const input = (i: number) => ({ ticketId: `T-${i}`, transcript: `Ticket ${i}: the dashboard shows a 500 error since the upgrade.` });

type Pinning = { available: true; hash: string; versionId: string } | { available: false; reason: string };

async function pin(api: BenchClient, versionId: string): Promise<Pinning> {
  const def = await api.call<{ definitionHash?: string; error?: { code: string; message: string } }>(
    "GET",
    `/v1/workflows/${WORKFLOW}/definition`,
  );
  if (def.status === 404)
    return { available: false, reason: `GET /v1/workflows/:id/definition answered 404 (${def.body?.error?.message ?? "no route"})` };
  const hash = def.body.definitionHash;
  if (!hash) return { available: false, reason: `GET /v1/workflows/:id/definition answered ${def.status}` };
  const approve = await api.call<{ error?: { message: string } }>("POST", `/v1/definitions/${hash}/approve`);
  if (approve.status === 404)
    return { available: false, reason: `POST /v1/definitions/:hash/approve answered 404 (${approve.body?.error?.message ?? "no route"})` };
  if (approve.status !== 200) return { available: false, reason: `approve answered ${approve.status}: ${JSON.stringify(approve.body)}` };
  const pinned = await api.call<{ error?: { message: string } }>("POST", `/v1/definitions/${hash}/pin`, { versionId });
  if (pinned.status === 404)
    return { available: false, reason: `POST /v1/definitions/:hash/pin answered 404 (${pinned.body?.error?.message ?? "no route"})` };
  if (pinned.status !== 200) return { available: false, reason: `pin answered ${pinned.status}: ${JSON.stringify(pinned.body)}` };
  return { available: true, hash, versionId };
}

export const planOnce: Scenario = {
  id: "plan-once",
  title: `Plan once, run many: ${RUNS} runs of one definition, without and with a pinned version`,
  async run(ctx) {
    const api = await ctx.client();
    const runs = async (offset: number) => {
      const out: BenchRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await api.ok<BenchRun>("POST", "/bench/run", { workflowId: WORKFLOW, input: input(offset + i) });
        if (r.status !== "completed") throw new Error(`run ${r.runId} ended ${r.status}: ${JSON.stringify(r.cause)}`);
        out.push(r);
      }
      return out;
    };
    const unpinned = await runs(0);
    ctx.log(`unpinned: ${unpinned.map((r) => r.engineMs).join(", ")} ms`);
    const versionId = unpinned[0]?.versionId;
    const pinning: Pinning = versionId ? await pin(api, versionId) : { available: false, reason: "the first run reported no version" };
    let pinned: BenchRun[] = [];
    const notes: string[] = [
      "Models are the offline model with no latency, so the planner's time here is its harness and bash work only; a real planner adds seconds per call, which pinning saves too. Tokens are the offline model's estimate (about 4 characters a token).",
    ];
    if (pinning.available) {
      pinned = await runs(RUNS);
      ctx.log(`pinned ${pinning.versionId}: ${pinned.map((r) => r.engineMs).join(", ")} ms`);
      const other = pinned.filter((r) => r.versionId !== pinning.versionId);
      if (other.length > 0) notes.push(`${other.length} pinned runs executed another version than ${pinning.versionId}`);
      await api.call("DELETE", `/v1/definitions/${pinning.hash}/pin`);
    } else notes.push(`The pinned half is unavailable: ${pinning.reason}. Pinned versions were not in the committed code when this ran.`);

    const per = (list: BenchRun[], f: (r: BenchRun) => number) => summarize(list.map(f));
    const tokens = (r: BenchRun) => r.inputTokens + r.outputTokens;
    const figure = (name: string, f: (r: BenchRun) => number, digits: number): Row[] => {
      const u = per(unpinned, f);
      const p = per(pinned, f);
      return [
        { figure: `${name} per run, unpinned`, ours: cell(u, digits) },
        {
          figure: `${name} per run, pinned`,
          ours: pinning.available ? cell(p, digits) : "unavailable",
          ...(pinning.available ? { ratio: `${times(p.median / u.median)} of unpinned` } : {}),
        },
      ];
    };
    const rows: Row[] = [
      ...figure("planner calls", (r) => r.plannerCalls, 0),
      ...figure("tokens (all model calls)", tokens, 0),
      ...figure("ms from trigger to end", (r) => r.engineMs, 0),
      ...figure("events logged", (r) => r.eventCount, 0),
    ];
    return { repetitions: RUNS, rows, notes, raw: { pinning, unpinned, pinned } };
  },
};

await runAlone(planOnce, import.meta.main);
