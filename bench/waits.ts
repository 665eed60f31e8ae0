/**
 * Issue 26's wait benchmarks, side by side with Cloudflare Workflows in the same `wrangler dev`:
 *  - signal round trip: from the send's answer to the waiting step's completion, ours
 *    (`POST /v1/runs/:id/signals` → `wait.signal`) vs `instance.sendEvent` → `step.waitForEvent`;
 *  - many sleepers: `SLEEPERS` runs each sleeping 5 s; every one must wake within 1 s of its
 *    deadline and none be lost; workerd's memory while they sleep.
 */

import type { Row } from "./support/results.ts";
import type { Scenario } from "./support/scenario.ts";
import { cell, percentile, summarize, times } from "./support/stats.ts";
import { workerdMemoryMiB } from "./support/workerd-memory.ts";

type RoundTrip = {
  oursFromAnswerMs: number;
  oursFromSendMs: number;
  oursAckMs: number;
  peerFromAnswerMs: number;
  peerFromSendMs: number;
  peerAckMs: number;
};

export const signalRoundTrip: Scenario = {
  id: "signal-round-trip",
  title: "Signal round trip: the send's answer → the waiting step's end, ours vs sendEvent → waitForEvent",
  async run(ctx) {
    const api = await ctx.client();
    await api.ok<RoundTrip>("POST", "/bench/waits/round-trip", {});
    const raw: RoundTrip[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      raw.push(await api.ok<RoundTrip>("POST", "/bench/waits/round-trip", {}));
      ctx.log(`rep ${i + 1}: ${JSON.stringify(raw.at(-1))}`);
    }
    // The step may end before the send's answer reaches the caller (the wake-up is armed first): clamp at 0.
    const ours = summarize(raw.map((r) => Math.max(0, r.oursFromAnswerMs)));
    const peer = summarize(raw.map((r) => Math.max(0, r.peerFromAnswerMs)));
    const oursSend = summarize(raw.map((r) => r.oursFromSendMs));
    const peerSend = summarize(raw.map((r) => r.peerFromSendMs));
    const ratio = oursSend.median / peerSend.median;
    const rows: Row[] = [
      {
        figure: "ms from the send's answer to the waiting step's end",
        ours: cell(ours, 1),
        peer: cell(peer, 1),
        ratio: peer.median > 0 ? times(ours.median / peer.median) : "—",
      },
      {
        figure: "ms from the send to the waiting step's end",
        ours: cell(oursSend, 1),
        peer: cell(peerSend, 1),
        ratio: times(ratio),
        target: "ratio ≤ 1×",
        met: ratio <= 1,
      },
      {
        figure: "ms for the send to be answered (ours: durable in the run's log)",
        ours: cell(summarize(raw.map((r) => r.oursAckMs)), 1),
        peer: cell(summarize(raw.map((r) => r.peerAckMs)), 1),
      },
    ];
    return { repetitions: ctx.reps, rows, notes: [], raw: { roundTrips: raw } };
  },
};

const SLEEPERS = 1_000;
const SLEEP_MS = 5_000;

export const sleepers: Scenario = {
  id: "sleepers",
  title: `${SLEEPERS} runs sleeping ${SLEEP_MS / 1000} s: lateness of each wake-up, none lost, workerd memory`,
  async run(ctx) {
    const api = await ctx.client();
    const group = (await ctx.dev()).processGroup;
    const before = await workerdMemoryMiB(group);
    const { runIds, startMs } = await api.ok<{ runIds: string[]; startMs: number }>("POST", "/bench/waits/sleepers", {
      count: SLEEPERS,
      sleepMs: SLEEP_MS,
    });
    ctx.log(`${runIds.length} runs started in ${startMs} ms`);
    const during = await workerdMemoryMiB(group);
    // Wait out the last start's sleep and a margin, touching no run.
    await new Promise((resolve) => setTimeout(resolve, SLEEP_MS + 3_000));
    let lateness: (number | null)[] = [];
    for (let i = 0; i < 10; i++) {
      lateness = (await api.ok<{ lateness: (number | null)[] }>("POST", "/bench/waits/sleepers-result", { runIds })).lateness;
      if (lateness.every((l) => l !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const woke = lateness.filter((l): l is number => l !== null);
    const late = summarize(woke);
    const within = woke.filter((l) => l < 1_000).length;
    const after = await workerdMemoryMiB(group);
    const mib = (m: typeof before) => (m ? `${m.rss.toFixed(0)} MiB (anon ${m.anon.toFixed(0)})` : "n/a");
    const rows: Row[] = [
      {
        figure: "runs woken / started",
        ours: `${woke.length} / ${runIds.length}`,
        target: "none lost",
        met: woke.length === runIds.length,
      },
      {
        figure: "ms late (StepSucceeded − deadline): median (min–max), p99",
        ours: `${cell(late, 0)}, p99 ${percentile(woke, 99).toFixed(0)}`,
      },
      { figure: "woke within 1 s of the deadline", ours: `${within} / ${runIds.length}`, target: "all", met: within === runIds.length },
      { figure: `ms to start ${SLEEPERS} runs (in-process, 20 at a time)`, ours: String(startMs) },
      { figure: "workerd memory before / while sleeping / after", ours: `${mib(before)} / ${mib(during)} / ${mib(after)}` },
    ];
    return { repetitions: 1, rows, notes: [], raw: { lateness, startMs, before, during, after } };
  },
};
