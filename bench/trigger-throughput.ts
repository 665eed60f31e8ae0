/**
 * Scenario 5 — trigger throughput. Concurrent HTTP clients start runs for 10 s against the bench
 * `wrangler dev` (`POST /v1/lwir/runs`, a one-step no-op LWIR, so completing them is cheap and the
 * trigger path is what is measured): runs accepted per second, acknowledgement latency, and that
 * every accepted run completes.
 */
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { percentile, summarize } from "./support/stats.ts";

const DURATION_MS = 10_000;
const CLIENTS = 16;
const COMPLETE_WITHIN_MS = 300_000;
const CHECKERS = 8;

export const triggerThroughput: Scenario = {
  id: "trigger-throughput",
  title: `Trigger throughput: ${CLIENTS} concurrent HTTP clients starting runs for ${DURATION_MS / 1_000} s`,
  async run(ctx) {
    const api = await ctx.client();
    const { lwir } = await api.ok<{ lwir: unknown }>("POST", "/bench/lwir", { shape: { kind: "noop-chain", n: 1 } });
    // Warm the route once so the window does not include first-use compilation.
    await api.ok("POST", "/v1/lwir/runs", { lwir, input: {} });
    const accepted: string[] = [];
    const acks: number[] = [];
    const refused: Record<string, number> = {};
    const started = performance.now();
    const until = started + DURATION_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < until) {
          try {
            const r = await api.call<{ run?: { runId: string } }>("POST", "/v1/lwir/runs", { lwir, input: {} });
            if ((r.status === 202 || r.status === 200) && r.body.run) {
              accepted.push(r.body.run.runId);
              acks.push(r.ms);
            } else refused[String(r.status)] = (refused[String(r.status)] ?? 0) + 1;
          } catch (error) {
            const key = error instanceof Error ? error.message : String(error);
            refused[key] = (refused[key] ?? 0) + 1;
          }
        }
      }),
    );
    const windowMs = performance.now() - started;
    const perSecond = (accepted.length / windowMs) * 1_000;
    ctx.log(`${accepted.length} runs accepted in ${windowMs.toFixed(0)} ms (${perSecond.toFixed(1)}/s)`);

    // Every accepted run must complete: read each one until it has ended.
    const ended: Record<string, number> = {};
    const c0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CHECKERS }, async () => {
        for (let i = next++; i < accepted.length; i = next++) {
          for (;;) {
            const r = await api.call<{ run?: { status: string } }>("GET", `/v1/runs/${accepted[i]}`);
            const status = r.body.run?.status ?? `http ${r.status}`;
            if (["completed", "failed", "cancelled"].includes(status) || performance.now() - c0 > COMPLETE_WITHIN_MS) {
              ended[status] = (ended[status] ?? 0) + 1;
              break;
            }
            await new Promise((done) => setTimeout(done, 200));
          }
        }
      }),
    );
    const allDoneMs = performance.now() - c0;
    const completed = ended.completed ?? 0;
    const p50 = percentile(acks, 50);
    const p99 = percentile(acks, 99);
    const rows: Row[] = [
      { figure: "runs accepted per second", ours: perSecond.toFixed(1), target: "≥ 200/s", met: perSecond >= 200 },
      { figure: "ack latency p50 / p99, ms", ours: `${p50.toFixed(1)} / ${p99.toFixed(1)}`, target: "p99 < 100 ms", met: p99 < 100 },
      { figure: "ack latency min / max, ms", ours: `${summarize(acks).min.toFixed(1)} / ${summarize(acks).max.toFixed(1)}` },
      {
        figure: "accepted runs that completed",
        ours: `${completed} of ${accepted.length}`,
        target: "all",
        met: completed === accepted.length,
      },
      { figure: "time after the window until every accepted run had ended, ms", ours: allDoneMs.toFixed(0) },
    ];
    const notes = [
      `One 10 s window (thousands of samples), not repeated; ${CLIENTS} clients in one Node process on the same machine as wrangler dev.`,
    ];
    if (Object.keys(refused).length > 0) notes.push(`Not accepted: ${JSON.stringify(refused)}`);
    const notCompleted = Object.entries(ended).filter(([s]) => s !== "completed");
    if (notCompleted.length > 0) notes.push(`Accepted runs that did not complete: ${JSON.stringify(Object.fromEntries(notCompleted))}`);
    return { repetitions: 1, rows, notes, raw: { windowMs, accepted: accepted.length, acksMs: acks, refused, ended, allDoneMs } };
  },
};

await runAlone(triggerThroughput, import.meta.main);
