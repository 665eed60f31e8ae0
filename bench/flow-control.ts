/**
 * Flow control (issue 28; docs/flow-control.md), against the bench `wrangler dev`:
 *
 * 1. the ack of a start with a free concurrency slot vs the same start of a workflow without flow
 *    control, alternated in one run (target: ≤ +2 ms median);
 * 2. one key's limiter: admissions (and releases) per second from inside the process;
 * 3. 1,000 runs across 50 keys with limit 5: the drain time vs the same runs with no limits, and
 *    that every one completed exactly once (none lost, none twice).
 */
import type { BenchClient } from "./support/bench-client.ts";
import { completion, ourStatus, type StartAnswer } from "./support/run-starts.ts";
import type { Scenario } from "./support/scenario.ts";
import { cell, summarize, times } from "./support/stats.ts";

const ACKS = 60;
const RUNS = 1_000;
const KEYS = 50;
const CLIENTS = 16;

/** The one-step no-op LWIR, named for `workflowId` (all the no-op bench workflows share its schemas). */
async function lwirFor(api: BenchClient, workflowId: string): Promise<unknown> {
  const { lwir } = await api.ok<{ lwir: { metadata: Record<string, unknown> } }>("POST", "/bench/lwir", {
    shape: { kind: "noop-chain", n: 1 },
  });
  return { ...lwir, metadata: { ...lwir.metadata, name: workflowId } };
}

function starter(api: BenchClient, lwir: unknown) {
  return async (items: number[]): Promise<StartAnswer> => {
    const r = await api.call<{ run?: { runId: string } }>("POST", "/v1/lwir/runs", { lwir, input: { items } });
    return { id: (r.status === 202 || r.status === 200) && r.body?.run ? r.body.run.runId : null, status: r.status, ms: r.ms };
  };
}

/** `RUNS` starts by `CLIENTS` concurrent clients, run i keyed `i % KEYS`; then the time until every one has ended. */
async function drain(api: BenchClient, start: (items: number[]) => Promise<StartAnswer>) {
  const ids: string[] = [];
  let refused = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < RUNS; i = next++) {
        const r = await start([i % KEYS]);
        if (r.id) ids.push(r.id);
        else refused++;
      }
    }),
  );
  const done = await completion(ids, ourStatus(api), { checkers: 8, pollMs: 250, withinMs: 600_000 });
  return { ids, refused, ended: done.ended, drainMs: done.doneAt - t0 };
}

export const flowControl: Scenario = {
  id: "flow-control",
  title: "Flow control: ack with a free slot, one key's limiter, 1,000 runs over 50 keys with limit 5",
  async run(ctx) {
    const api = await ctx.client();
    const plain = starter(api, await lwirFor(api, "bench.noop"));
    const gated = starter(api, await lwirFor(api, "bench.flow-wide"));
    // Warm both paths and the wide key's limiter.
    await plain([0]);
    await gated([0]);
    const acks = { plain: [] as number[], gated: [] as number[] };
    for (let i = 0; i < ACKS; i++) {
      // Each ack on a quiet isolate: the run a start acks is driven just after it, and a start
      // measured right behind another would share the thread with that drive.
      acks.plain.push((await plain([0])).ms);
      await new Promise((done) => setTimeout(done, 150));
      acks.gated.push((await gated([0])).ms);
      await new Promise((done) => setTimeout(done, 150));
    }
    const plainAck = summarize(acks.plain);
    const gatedAck = summarize(acks.gated);
    ctx.log(`ack median: ${plainAck.median.toFixed(1)} ms plain, ${gatedAck.median.toFixed(1)} ms with a free slot`);

    const plainLwir = await lwirFor(api, "bench.noop");
    const gatedLwir = await lwirFor(api, "bench.flow-wide");
    const inside = await api.ok<{ plainMs: number; gatedMs: number; objectPlainMs: number; objectGatedMs: number; admissionMs: number }>(
      "POST",
      "/bench/flow/ack-breakdown",
      {
        n: 30,
        plain: plainLwir,
        gated: gatedLwir,
      },
    );
    ctx.log(
      `in-process ack median: ${inside.plainMs.toFixed(1)} ms plain, ${inside.gatedMs.toFixed(1)} ms with a free slot (the run object's start alone: ${inside.objectPlainMs.toFixed(1)} / ${inside.objectGatedMs.toFixed(1)} ms); one admission ${inside.admissionMs.toFixed(1)} ms`,
    );

    const one = await api.ok<{ admitted: number; elapsedMs: number; medianAcquireMs: number }>("POST", "/bench/flow/admissions", {
      ms: 3_000,
      clients: 1,
      limit: 1_000_000,
    });
    const many = await api.ok<{ admitted: number; elapsedMs: number; medianAcquireMs: number }>("POST", "/bench/flow/admissions", {
      ms: 3_000,
      clients: 16,
      limit: 1_000_000,
    });
    const perSecond = (r: { admitted: number; elapsedMs: number }) => (r.admitted / r.elapsedMs) * 1_000;
    ctx.log(`one key: ${perSecond(one).toFixed(0)} admissions/s alone, ${perSecond(many).toFixed(0)} with 16 callers`);

    const unlimited = await drain(api, plain);
    ctx.log(`no limits: ${unlimited.ids.length} runs drained in ${unlimited.drainMs.toFixed(0)} ms`);
    const limited = await drain(api, starter(api, await lwirFor(api, "bench.flow-5")));
    ctx.log(`limit 5 over 50 keys: ${limited.ids.length} runs drained in ${limited.drainMs.toFixed(0)} ms`);
    const once = (d: typeof limited) => new Set(d.ids).size === d.ids.length && (d.ended.completed ?? 0) === d.ids.length;

    return {
      repetitions: ACKS,
      rows: [
        {
          figure: `ack, one client, ${ACKS} each alternated: no flow control / a free concurrency slot, ms (median, min–max)`,
          ours: `${cell(plainAck, 1)} / ${cell(gatedAck, 1)}`,
          target: "≤ +2 ms median",
          met: gatedAck.median - plainAck.median <= 2,
        },
        {
          figure:
            "the same inside the process (API app, no HTTP client or proxy), 30 alternated: plain / a free slot / one lone admission, ms (median)",
          ours: `${inside.plainMs.toFixed(1)} / ${inside.gatedMs.toFixed(1)} / ${inside.admissionMs.toFixed(1)}`,
        },
        {
          figure: "the run object's start alone (RPC from the Worker), 30 alternated: plain / a free slot, ms (median)",
          ours: `${inside.objectPlainMs.toFixed(1)} / ${inside.objectGatedMs.toFixed(1)}`,
        },
        {
          figure: "one key's limiter (acquire + release per run, from the Worker): admissions per second, 1 / 16 callers",
          ours: `${perSecond(one).toFixed(0)} / ${perSecond(many).toFixed(0)}`,
        },
        { figure: "one admission's round trip (median, 1 / 16 callers), ms", ours: `${one.medianAcquireMs} / ${many.medianAcquireMs}` },
        {
          figure: `${RUNS} runs over ${KEYS} keys (16 clients): drain with limit 5 per key / with no limits, ms`,
          ours: `${limited.drainMs.toFixed(0)} / ${unlimited.drainMs.toFixed(0)}`,
          ratio: times(limited.drainMs / unlimited.drainMs),
        },
        {
          figure: "runs accepted and completed exactly once (limited / unlimited)",
          ours: `${limited.ended.completed ?? 0} of ${limited.ids.length} (${limited.refused} refused) / ${unlimited.ended.completed ?? 0} of ${unlimited.ids.length} (${unlimited.refused} refused)`,
          target: "all, none twice",
          met: once(limited) && once(unlimited) && limited.refused === 0,
        },
      ],
      notes: [
        "A start with a free slot costs the ack one RPC from the run object to its key's limiter (docs/flow-control.md).",
        "Drain: from the first start to the last run seen ended by 8 status readers polling every 250 ms.",
      ],
      raw: {
        acks,
        inside,
        one,
        many,
        unlimited: { ...unlimited, ids: unlimited.ids.length },
        limited: { ...limited, ids: limited.ids.length },
      },
    };
  },
};
