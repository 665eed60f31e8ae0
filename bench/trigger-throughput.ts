/**
 * Scenario 5 — trigger throughput. Concurrent HTTP clients start runs for 10 s against the bench
 * `wrangler dev` (`POST /v1/lwir/runs`, a one-step no-op LWIR, so completing them is cheap and the
 * trigger path is what is measured): runs accepted per second, acknowledgement latency, and that
 * every accepted run completes. The same window against the peer (a bench route that creates a
 * one-step Workflow instance) runs first, and one client alone first gives the unloaded ack time.
 */
import type { Row } from "./support/results.ts";
import {
  type Completion,
  completion,
  noopLwir,
  ourStatus,
  peerStatus,
  type StartAnswer,
  startOurs,
  startPeer,
} from "./support/run-starts.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, percentile, summarize, times } from "./support/stats.ts";

const DURATION_MS = 10_000;
const CLIENTS = 16;
const ALONE = 20;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

type Breakdown = {
  objectStartMs: number;
  routeMs: number;
  approvalReadMs: number;
  indexReadMs: number;
  indexUpsertMs: number;
  objectStatusMs: number;
  freshObjectMs: number;
};
/** The start path's I/O, each alone (`/bench/ack-breakdown`); workerd's clock steps in whole ms, so the mean is shown. */
const PHASES: readonly [keyof Breakdown, string][] = [
  ["approvalReadMs", "approval read (D1, before the ack, with the admit)"],
  ["indexReadMs", "index read (D1)"],
  ["indexUpsertMs", "index upsert (D1 write, after the ack)"],
  ["objectStatusMs", "run object `status` RPC (checkpoint + tail)"],
  ["freshObjectMs", "first RPC to a new run object (creates its SQLite, before the ack)"],
];
type Window = { windowMs: number; accepted: string[]; acks: number[]; refused: Record<string, number> };

/** `CLIENTS` loops sending `start()` for `DURATION_MS`. */
async function window(start: () => Promise<StartAnswer>): Promise<Window> {
  const accepted: string[] = [];
  const acks: number[] = [];
  const refused: Record<string, number> = {};
  const started = performance.now();
  const until = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        try {
          const r = await start();
          if (r.id) {
            accepted.push(r.id);
            acks.push(r.ms);
          } else refused[String(r.status)] = (refused[String(r.status)] ?? 0) + 1;
        } catch (error) {
          const key = error instanceof Error ? error.message : String(error);
          refused[key] = (refused[key] ?? 0) + 1;
        }
      }
    }),
  );
  return { windowMs: performance.now() - started, accepted, acks, refused };
}

export const triggerThroughput: Scenario = {
  id: "trigger-throughput",
  title: `Trigger throughput: ${CLIENTS} concurrent HTTP clients starting runs for ${DURATION_MS / 1_000} s`,
  async run(ctx) {
    const api = await ctx.client();
    const startOne = startOurs(api, await noopLwir(api));
    const ours = () => startOne();
    const peer = startPeer(api);
    // Warm both routes, then one client alone: the ack time with nothing else running.
    await ours();
    await peer();
    const alone: number[] = [];
    for (let i = 0; i < ALONE; i++) {
      const r = await ours();
      alone.push(r.ms);
      // Let the run finish, so the next ack is not slowed by this run's drive.
      await new Promise((done) => setTimeout(done, 150));
    }
    ctx.log(`one client alone: ack median ${summarize(alone).median.toFixed(1)} ms`);
    const breakdown: Breakdown[] = [];
    for (let i = 0; i < ALONE; i++) {
      breakdown.push(await api.ok<Breakdown>("POST", "/bench/ack-breakdown", { shape: { kind: "noop-chain", n: 1 } }));
      await new Promise((done) => setTimeout(done, 150));
    }

    const peerWindow = await window(peer);
    const peerDone = await completion(peerWindow.accepted, peerStatus(api));
    ctx.log(`peer: ${peerWindow.accepted.length} instances created in ${peerWindow.windowMs.toFixed(0)} ms`);
    const oursWindow = await window(ours);
    ctx.log(`ours: ${oursWindow.accepted.length} runs accepted in ${oursWindow.windowMs.toFixed(0)} ms`);
    const oursDone = await completion(oursWindow.accepted, ourStatus(api));

    const rate = (w: Window) => (w.accepted.length / w.windowMs) * 1_000;
    const p = (w: Window, q: number) => percentile(w.acks, q);
    const done = (w: Window, c: Completion, ok: string) => `${c.ended[ok] ?? 0} of ${w.accepted.length}`;
    const rows: Row[] = [
      {
        figure: "runs accepted per second",
        ours: rate(oursWindow).toFixed(1),
        peer: rate(peerWindow).toFixed(1),
        ratio: times(rate(oursWindow) / rate(peerWindow)),
        target: "≥ 200/s",
        met: rate(oursWindow) >= 200,
      },
      {
        figure: "ack latency p50 / p99, ms",
        ours: `${p(oursWindow, 50).toFixed(1)} / ${p(oursWindow, 99).toFixed(1)}`,
        peer: `${p(peerWindow, 50).toFixed(1)} / ${p(peerWindow, 99).toFixed(1)}`,
        ratio: times(p(oursWindow, 99) / p(peerWindow, 99)),
        target: "p99 < 100 ms",
        met: p(oursWindow, 99) < 100,
      },
      { figure: `ack latency with one client alone (${ALONE} starts), ms`, ours: cell(summarize(alone), 1) },
      {
        figure: "one ack in-process (one client alone): whole route / of which the run object's start, ms",
        ours: `${cell(summarize(breakdown.map((b) => b.routeMs)), 1)} / ${cell(summarize(breakdown.map((b) => b.objectStartMs)), 1)}`,
      },
      {
        figure: `one ack's I/O one at a time (one client alone, mean of ${ALONE}), ms: ${PHASES.map(([, name]) => name).join(" / ")}`,
        ours: PHASES.map(([key]) => mean(breakdown.map((b) => b[key] ?? Number.NaN)).toFixed(1)).join(" / "),
      },
      {
        figure: "accepted runs that completed",
        ours: done(oursWindow, oursDone, "completed"),
        peer: done(peerWindow, peerDone, "complete"),
        target: "all",
        met: (oursDone.ended.completed ?? 0) === oursWindow.accepted.length,
      },
      {
        figure: "time after the window until every accepted run had ended, ms",
        ours: oursDone.allDoneMs.toFixed(0),
        peer: peerDone.allDoneMs.toFixed(0),
      },
    ];
    const notes = [
      `One 10 s window per side, not repeated; ${CLIENTS} clients in one Node process on the same machine as wrangler dev. The peer is a bench route calling \`create()\` on a one-step Workflow, so its ack has no input validation, no LWIR binding and no run index write.`,
    ];
    for (const [name, w, c, ok] of [
      ["ours", oursWindow, oursDone, "completed"],
      ["peer", peerWindow, peerDone, "complete"],
    ] as const) {
      if (Object.keys(w.refused).length > 0) notes.push(`Not accepted (${name}): ${JSON.stringify(w.refused)}`);
      const other = Object.entries(c.ended).filter(([s]) => s !== ok);
      if (other.length > 0) notes.push(`Accepted but not completed (${name}): ${JSON.stringify(Object.fromEntries(other))}`);
    }
    return {
      repetitions: 1,
      rows,
      notes,
      raw: {
        aloneMs: alone,
        breakdown,
        ours: { ...oursWindow, accepted: oursWindow.accepted.length, ...oursDone },
        peer: { ...peerWindow, accepted: peerWindow.accepted.length, ...peerDone },
      },
    };
  },
};

await runAlone(triggerThroughput, import.meta.main);
