/**
 * Scenario 9 — a burst. 1,000 runs of the one-step no-op LWIR started as fast as the client can
 * (64 connections, each taking the next of 1,000 keys until every key is accepted), then swept
 * until every run has ended: the time to accept all 1,000, the drain (first start → last run
 * ended), and whether every accepted run completed, none lost (accepted but missing from the paged
 * `GET /v1/runs`) and none duplicated (listed more than accepted, or twice). Each start carries its
 * own key — the run id, and the same value as `Idempotency-Key` — so a start retried after a 5xx
 * or a dropped connection answers its run instead of creating another. The peer gets the same
 * burst: 1,000 `create()` of its one-step Workflow through the bench route of trigger-throughput.
 */
import { randomBytes } from "node:crypto";
import type { BenchClient } from "./support/bench-client.ts";
import { sleep } from "./support/bench-dev.ts";
import { type Burst, burst, type Drain, drain, type RunEnd } from "./support/burst-load.ts";
import type { Row } from "./support/results.ts";
import { indexEnds, listRuns } from "./support/run-listing.ts";
import { completion, DONE, ENDED, NOT_FOUND, noopLwir, ourStatus, startOurs, startPeer } from "./support/run-starts.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { percentile, times } from "./support/stats.ts";

const RUNS = 1_000;
const LOAD = { count: RUNS, connections: 64, attempts: 8, backoffMs: 250 };
/** Sweeps every 250 ms; a run not found for 30 s counts as lost; 10 min at most. */
const SWEEPS = { sweepMs: 250, withinMs: 600_000, notFoundMs: 30_000 };
/** Peer instances read per bulk request. */
const PEER_CHUNK = 200;

/** The peer's instances, read inside the process in chunks (bench/worker/burst-routes.ts). */
function peerEnds(api: BenchClient) {
  return async (pending: readonly string[]): Promise<Map<string, RunEnd>> => {
    const known = new Map<string, RunEnd>();
    for (let i = 0; i < pending.length; i += PEER_CHUNK) {
      const { ends } = await api.ok<{ ends: ({ id: string } & RunEnd)[] }>("POST", "/bench/burst/peer-ends", {
        ids: pending.slice(i, i + PEER_CHUNK),
      });
      for (const { id, status, endedAt } of ends) known.set(id, { status, endedAt });
    }
    return known;
  };
}

/** Lost and duplicated runs of ours: the accepted ids against the run index's listing. */
async function indexCheck(api: BenchClient, workflowId: string, b: Burst) {
  const { runs, pages } = await listRuns(api, workflowId, b.wall0);
  const mine = runs.filter((r) => r.createdAt >= b.wall0);
  const listed = new Map<string, number>();
  for (const r of mine) listed.set(r.runId, (listed.get(r.runId) ?? 0) + 1);
  const accepted = new Set(b.ids);
  const listedTwice = [...listed.values()].reduce((n, k) => n + k - 1, 0);
  const unaccepted = [...listed.keys()].filter((id) => !accepted.has(id)).length;
  return {
    pages,
    listed: mine.length,
    lost: b.ids.filter((id) => !listed.has(id)).length,
    duplicated: listedTwice + unaccepted + (b.ids.length - accepted.size),
  };
}

/** First start → the last run's own end time, and → the sweep that saw it. */
function drainTimes(b: Burst, d: Drain) {
  // A peer instance that errored has no end stamp: the drain is then the completed ones' (the failures are reported).
  const stamps = [...d.ends.values()].flatMap((e) => (e.endedAt === null ? [] : [e.endedAt]));
  const lastEnd = stamps.length > 0 ? Math.max(...stamps) : Number.NaN;
  return { endMs: lastEnd - b.wall0, seenMs: d.seenAt - b.t0 };
}

const tally = (statuses: Iterable<string>) => {
  const out: Record<string, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
};
const failedOf = (ended: Record<string, number>, done: string) =>
  Object.entries(ended)
    .filter(([s]) => s !== done && ENDED.has(s))
    .reduce((n, [, k]) => n + k, 0);
const seenCell = (b: Burst) => `${b.seen["429"]} / ${b.seen["5xx"]} / ${b.seen.network}; ${b.retries} retries`;
const rate = (b: Burst) => (b.ids.length / b.acceptedMs) * 1_000;
const acks = (b: Burst) => `${percentile(b.acks, 50).toFixed(0)} / ${percentile(b.acks, 99).toFixed(0)}`;

export const burstScenario: Scenario = {
  id: "burst",
  title: `Burst: ${RUNS.toLocaleString("en")} runs started at once over ${LOAD.connections} connections, then drained`,
  async run(ctx) {
    const api = await ctx.client();
    const lwir = await noopLwir(api);
    const workflowId = (lwir as { metadata: { name: string } }).metadata.name;
    const ours = startOurs(api, lwir);
    const peer = startPeer(api);
    // Warm both paths (isolate, D1, the Workflows engine) so the burst does not measure a cold start.
    await ours();
    await peer();
    await sleep(1_000);

    const peerBurst = await burst(() => peer(), LOAD);
    ctx.log(`peer: ${peerBurst.ids.length} instances created in ${peerBurst.acceptedMs.toFixed(0)} ms`);
    const peerDrain = await drain(peerBurst.ids, peerEnds(api), SWEEPS);
    const peerTimes = drainTimes(peerBurst, peerDrain);
    ctx.log(`peer: last instance ended ${peerTimes.endMs.toFixed(0)} ms after the first start`);
    await sleep(2_000);

    const prefix = `burst_${randomBytes(4).toString("hex")}_`;
    const oursBurst = await burst((key) => ours(`${prefix}${key}`), LOAD);
    ctx.log(`ours: ${oursBurst.ids.length} runs accepted in ${oursBurst.acceptedMs.toFixed(0)} ms`);
    const oursDrain = await drain(oursBurst.ids, indexEnds(api, workflowId, oursBurst.wall0), SWEEPS);
    const oursTimes = drainTimes(oursBurst, oursDrain);
    ctx.log(`ours: last run ended ${oursTimes.endMs.toFixed(0)} ms after the first start`);
    // After the drain, untimed: every accepted run read from its own run object, and the listing checked.
    const oursRead = await completion(oursBurst.ids, ourStatus(api), { withinMs: 60_000, notFoundMs: 10_000 });
    const index = await indexCheck(api, workflowId, oursBurst);
    const peerEnded = tally([...peerDrain.ends.values()].map((e) => e.status));
    const peerLost = [...peerDrain.left.values()].filter((s) => s === NOT_FOUND).length;
    const peerDuplicated = peerBurst.ids.length - new Set(peerBurst.ids).size;
    const oursCompleted = oursRead.ended[DONE.ours] ?? 0;
    const oursNotFound = oursRead.ended[NOT_FOUND] ?? 0;

    const rows: Row[] = [
      {
        figure: `runs accepted, of ${RUNS.toLocaleString("en")}`,
        ours: String(oursBurst.ids.length),
        peer: String(peerBurst.ids.length),
        target: "all",
        met: oursBurst.ids.length === RUNS,
      },
      {
        figure: "time to accept all (first start → last accepted), ms",
        ours: oursBurst.acceptedMs.toFixed(0),
        peer: peerBurst.acceptedMs.toFixed(0),
        ratio: times(oursBurst.acceptedMs / peerBurst.acceptedMs),
      },
      { figure: "starts accepted per second in the burst", ours: rate(oursBurst).toFixed(1), peer: rate(peerBurst).toFixed(1) },
      { figure: "ack p50 / p99 in the burst, ms", ours: acks(oursBurst), peer: acks(peerBurst) },
      {
        figure: "drain: first start → the last run's end (ours: its index row's final write; peer: its last step's return), ms",
        ours: oursTimes.endMs.toFixed(0),
        peer: peerTimes.endMs.toFixed(0),
        ratio: times(oursTimes.endMs / peerTimes.endMs),
      },
      {
        figure: "of which after the last accept, ms",
        ours: (oursTimes.endMs - oursBurst.acceptedMs).toFixed(0),
        peer: (peerTimes.endMs - peerBurst.acceptedMs).toFixed(0),
      },
      {
        figure: `first start → the client's sweep saw every run ended (every ${SWEEPS.sweepMs} ms), ms`,
        ours: oursTimes.seenMs.toFixed(0),
        peer: peerTimes.seenMs.toFixed(0),
      },
      {
        figure: "accepted runs completed / failed (ours: each read from its run object after the drain)",
        ours: `${oursCompleted} / ${failedOf(oursRead.ended, DONE.ours)}`,
        peer: `${peerEnded[DONE.peer] ?? 0} / ${failedOf(peerEnded, DONE.peer)}`,
        target: "all / 0",
        met: oursCompleted === oursBurst.ids.length && oursBurst.ids.length === RUNS,
      },
      {
        figure: "lost: accepted, then not found (ours: not in the paged `GET /v1/runs` / 404 on `GET /v1/runs/:id`; peer: `get()` fails)",
        ours: `${index.lost} / ${oursNotFound}`,
        peer: String(peerLost),
        target: "0",
        met: index.lost === 0 && oursNotFound === 0,
      },
      {
        figure: "duplicated: listed more than accepted, or one key accepted twice",
        ours: String(index.duplicated),
        peer: String(peerDuplicated),
        target: "0",
        met: index.duplicated === 0,
      },
      { figure: "429 / 5xx / dropped connections seen; start retries", ours: seenCell(oursBurst), peer: seenCell(peerBurst) },
    ];
    const notes = [
      `One burst per side, the peer first, not repeated; ${LOAD.connections} connections from one Node process on the same machine as wrangler dev. The drain is swept in bulk so that reading it loads the cores little: ours by paging \`GET /v1/runs?workflow=${workflowId}\` (${index.pages} pages of 200), the peer by reading its instances' \`status()\` ${PEER_CHUNK} at a time inside the process (\`/bench/burst/peer-ends\`). Our end time is when the run's index row was last written (after its terminal event); the peer's when its last \`step.do\` returned (before Workflows marks it complete).`,
      `Our index listed ${index.listed} runs of the burst. The peer cannot be checked the same way: the Workflows binding lists no instances, and its bench route takes no idempotency key, so a retried \`create()\` could start a second instance unseen (retries are counted above).`,
      "The bench Worker runs with LITTLE_QUOTA_STARTS_PER_MINUTE and LITTLE_QUOTA_CONCURRENT_RUNS at 1,000,000 (bench/support/bench-dev.ts). With the production defaults (600 starts a minute, 200 concurrent runs; src/engine/runs/start-limits.ts) one tenant's burst of 1,000 is refused in part with 429 `quota_exceeded`.",
    ];
    const notDone = [
      ["ours", oursBurst, Object.fromEntries(Object.entries(oursRead.ended).filter(([s]) => s !== DONE.ours))],
      ["peer", peerBurst, tally(peerDrain.left.values())],
    ] as const;
    for (const [name, b, other] of notDone) {
      if (b.givenUp > 0) notes.push(`Keys given up (${name}): ${b.givenUp}, answers ${JSON.stringify(b.seen.other)}.`);
      if (Object.keys(other).length > 0) notes.push(`Accepted but not completed (${name}): ${JSON.stringify(other)}`);
    }
    return {
      repetitions: 1,
      rows,
      notes,
      raw: {
        ours: { ...oursBurst, ids: oursBurst.ids.length, ...oursTimes, sweeps: oursDrain.sweeps, read: oursRead, index },
        peer: { ...peerBurst, ids: peerBurst.ids.length, ...peerTimes, sweeps: peerDrain.sweeps, ended: peerEnded, lost: peerLost },
      },
    };
  },
};

await runAlone(burstScenario, import.meta.main);
