/**
 * Scenario 9 — a burst. 1,000 runs of the one-step no-op LWIR started as fast as the client can
 * (64 connections, each taking the next of 1,000 keys until every key is accepted), then read
 * until every run has ended: the time to accept all 1,000, the drain (first start → last run
 * ended), and whether every accepted run completed, none lost (accepted but missing from the paged
 * `GET /v1/runs`) and none duplicated (listed more than accepted, or twice). Each start carries its
 * own key — the run id, and the same value as `Idempotency-Key` — so a start retried after a 5xx
 * or a dropped connection answers its run instead of creating another. The peer gets the same
 * burst: 1,000 `create()` of its one-step Workflow through the bench route, read as
 * trigger-throughput reads it.
 */
import { randomBytes } from "node:crypto";
import { sleep } from "./support/bench-dev.ts";
import type { Row } from "./support/results.ts";
import { listRuns } from "./support/run-listing.ts";
import {
  type Completion,
  completion,
  DONE,
  NOT_FOUND,
  noopLwir,
  ourStatus,
  peerStatus,
  type StartAnswer,
  startOurs,
  startPeer,
} from "./support/run-starts.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { percentile, times } from "./support/stats.ts";

const RUNS = 1_000;
const CONNECTIONS = 64;
/** Tries per key: a 429, a 5xx or a dropped connection is retried with the same key. */
const ATTEMPTS = 8;
const BACKOFF_MS = 250;
/** A run not found this long after the reading began counts as lost. */
const NOT_FOUND_MS = 30_000;
const WITHIN_MS = 600_000;

type Burst = {
  /** `performance.now()` and `Date.now()` at the first start. */
  t0: number;
  wall0: number;
  /** First start → the last key accepted. */
  acceptedMs: number;
  /** Accepted run ids (one per key that was accepted). */
  ids: string[];
  acks: number[];
  seen: { "429": number; "5xx": number; network: number; other: Record<string, number> };
  retries: number;
  /** Keys given up after {@link ATTEMPTS} tries or refused outright (a 4xx other than 429). */
  givenUp: number;
};

/** Starts {@link RUNS} keys over {@link CONNECTIONS} connections, retrying each key until accepted. */
async function burst(start: (key: number) => Promise<StartAnswer>): Promise<Burst> {
  const ids: string[] = [];
  const acks: number[] = [];
  const seen: Burst["seen"] = { "429": 0, "5xx": 0, network: 0, other: {} };
  let retries = 0;
  let givenUp = 0;
  let next = 0;
  const t0 = performance.now();
  const wall0 = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let key = next++; key < RUNS; key = next++) {
        for (let attempt = 1; ; attempt++) {
          let r: StartAnswer | null = null;
          try {
            r = await start(key);
          } catch {
            seen.network += 1;
          }
          if (r?.id) {
            ids.push(r.id);
            acks.push(r.ms);
            break;
          }
          if (r && r.status === 429) seen["429"] += 1;
          else if (r && r.status >= 500) seen["5xx"] += 1;
          else if (r) seen.other[String(r.status)] = (seen.other[String(r.status)] ?? 0) + 1;
          const retryable = !r || r.status === 429 || r.status >= 500;
          if (!retryable || attempt >= ATTEMPTS) {
            givenUp += 1;
            break;
          }
          retries += 1;
          await sleep(BACKOFF_MS * attempt);
        }
      }
    }),
  );
  return { t0, wall0, acceptedMs: performance.now() - t0, ids, acks, seen, retries, givenUp };
}

/** Lost and duplicated runs of ours: the accepted ids against the run index's listing. */
async function indexCheck(api: Parameters<typeof listRuns>[0], workflowId: string, b: Burst, prefix: string) {
  const { runs, pages } = await listRuns(api, workflowId, b.wall0);
  const mine = runs.filter((r) => r.runId.startsWith(prefix) || r.createdAt >= b.wall0);
  const listed = new Map<string, number>();
  for (const r of mine) listed.set(r.runId, (listed.get(r.runId) ?? 0) + 1);
  const accepted = new Set(b.ids);
  const lost = b.ids.filter((id) => !listed.has(id)).length;
  const listedTwice = [...listed.values()].reduce((n, count) => n + count - 1, 0);
  const unaccepted = [...listed.keys()].filter((id) => !accepted.has(id)).length;
  const lastUpdate = mine.length > 0 ? Math.max(...mine.map((r) => r.updatedAt)) : Number.NaN;
  return {
    pages,
    listed: mine.length,
    lost,
    duplicated: listedTwice + unaccepted + (b.ids.length - accepted.size),
    indexCompleted: mine.filter((r) => r.status === DONE.ours).length,
    /** The last index write of a burst run (its end), after the first start. */
    indexLastEndMs: lastUpdate - b.wall0,
  };
}

const count = (c: Completion, status: string) => c.ended[status] ?? 0;
const failedOf = (c: Completion, done: string) =>
  Object.entries(c.ended)
    .filter(([s]) => s !== done && s !== NOT_FOUND)
    .reduce((n, [, k]) => n + k, 0);
const seenCell = (b: Burst) => `${b.seen["429"]} / ${b.seen["5xx"]} / ${b.seen.network}; ${b.retries} retries`;

export const burstScenario: Scenario = {
  id: "burst",
  title: `Burst: ${RUNS.toLocaleString("en")} runs started at once over ${CONNECTIONS} connections, then drained`,
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

    const peerBurst = await burst(() => peer());
    ctx.log(`peer: ${peerBurst.ids.length} instances created in ${peerBurst.acceptedMs.toFixed(0)} ms`);
    const peerDone = await completion(peerBurst.ids, peerStatus(api), { notFoundMs: NOT_FOUND_MS, withinMs: WITHIN_MS });
    ctx.log(`peer: drained ${(peerDone.doneAt - peerBurst.t0).toFixed(0)} ms after its first start`);
    await sleep(2_000);

    const prefix = `burst_${randomBytes(4).toString("hex")}_`;
    const oursBurst = await burst((key) => ours(`${prefix}${key}`));
    ctx.log(`ours: ${oursBurst.ids.length} runs accepted in ${oursBurst.acceptedMs.toFixed(0)} ms`);
    const oursDone = await completion(oursBurst.ids, ourStatus(api), { notFoundMs: NOT_FOUND_MS, withinMs: WITHIN_MS });
    const drain = { ours: oursDone.doneAt - oursBurst.t0, peer: peerDone.doneAt - peerBurst.t0 };
    ctx.log(`ours: drained ${drain.ours.toFixed(0)} ms after its first start`);
    const index = await indexCheck(api, workflowId, oursBurst, prefix);
    const peerLost = count(peerDone, NOT_FOUND);
    const peerDuplicated = peerBurst.ids.length - new Set(peerBurst.ids).size;

    const rate = (b: Burst) => (b.ids.length / b.acceptedMs) * 1_000;
    const acks = (b: Burst) => `${percentile(b.acks, 50).toFixed(0)} / ${percentile(b.acks, 99).toFixed(0)}`;
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
        figure: "drain: first start → last run seen ended, ms",
        ours: drain.ours.toFixed(0),
        peer: drain.peer.toFixed(0),
        ratio: times(drain.ours / drain.peer),
      },
      {
        figure: "of which after the last accept, ms",
        ours: (drain.ours - oursBurst.acceptedMs).toFixed(0),
        peer: (drain.peer - peerBurst.acceptedMs).toFixed(0),
      },
      { figure: "last run ended by the run index (its `updatedAt`), ms after the first start", ours: index.indexLastEndMs.toFixed(0) },
      {
        figure: "accepted runs completed / failed",
        ours: `${count(oursDone, DONE.ours)} / ${failedOf(oursDone, DONE.ours)}`,
        peer: `${count(peerDone, DONE.peer)} / ${failedOf(peerDone, DONE.peer)}`,
        target: "all / 0",
        met: count(oursDone, DONE.ours) === oursBurst.ids.length && oursBurst.ids.length === RUNS,
      },
      {
        figure: "lost: accepted, then not found (ours: not in the paged `GET /v1/runs`; peer: `get()` fails)",
        ours: String(index.lost),
        peer: String(peerLost),
        target: "0",
        met: index.lost === 0 && count(oursDone, NOT_FOUND) === 0,
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
      `One burst per side, the peer first, not repeated; ${CONNECTIONS} connections from one Node process on the same machine as wrangler dev. Drain is seen by 8 readers polling each run every 200 ms (\`GET /v1/runs/:id\`; the peer's \`status()\` through a bench route), so it is an upper bound by about one poll; the readers' requests load the same 2 cores.`,
      `Our index check paged \`GET /v1/runs?workflow=${workflowId}\` (${index.pages} pages): ${index.listed} runs of the burst listed, ${index.indexCompleted} of them \`completed\` in the index.`,
      "The peer cannot be checked the same way: the Workflows binding lists no instances, and its bench route takes no idempotency key, so a retried `create()` could start a second instance unseen (retries are counted above).",
      "The bench Worker runs with LITTLE_QUOTA_STARTS_PER_MINUTE and LITTLE_QUOTA_CONCURRENT_RUNS at 1,000,000 (bench/support/bench-dev.ts). With the production defaults (600 starts a minute, 200 concurrent runs; src/api/quota-limits.ts) one tenant's burst of 1,000 is refused in part with 429 `quota_exceeded`.",
    ];
    if (oursBurst.givenUp + peerBurst.givenUp > 0)
      notes.push(`Keys given up: ours ${oursBurst.givenUp} (${JSON.stringify(oursBurst.seen.other)}), peer ${peerBurst.givenUp}.`);
    return {
      repetitions: 1,
      rows,
      notes,
      raw: {
        ours: { ...oursBurst, ids: oursBurst.ids.length, drainMs: drain.ours, completion: oursDone, index },
        peer: {
          ...peerBurst,
          ids: peerBurst.ids.length,
          drainMs: drain.peer,
          completion: peerDone,
          lost: peerLost,
          duplicated: peerDuplicated,
        },
      },
    };
  },
};

await runAlone(burstScenario, import.meta.main);
