/**
 * A burst of starts and its drain, for bench/burst.ts: `count` keys started over `connections`
 * connections as fast as they answer, each key retried until accepted; then the runs read in
 * bulk, a sweep at a time, until every one has ended.
 */
import { sleep } from "./bench-dev.ts";
import { ENDED, NOT_FOUND, type StartAnswer } from "./run-starts.ts";

export type BurstOptions = {
  readonly count: number;
  readonly connections: number;
  /** Tries per key: a 429, a 5xx or a dropped connection is retried with the same key. */
  readonly attempts: number;
  /** The n-th retry of a key waits n × this. */
  readonly backoffMs: number;
};

export type Burst = {
  /** `performance.now()` and `Date.now()` at the first start. */
  t0: number;
  wall0: number;
  /** First start → the last key accepted. */
  acceptedMs: number;
  /** Accepted run ids, one per accepted key. */
  ids: string[];
  /** The round trip of each accepted start. */
  acks: number[];
  seen: { "429": number; "5xx": number; network: number; other: Record<string, number> };
  retries: number;
  /** Keys given up: refused outright (a 4xx other than 429) or after the last try. */
  givenUp: number;
};

/** Starts keys 0…count−1, `connections` at a time, each until accepted or given up. */
export async function burst(start: (key: number) => Promise<StartAnswer>, options: BurstOptions): Promise<Burst> {
  const b: Burst = {
    t0: performance.now(),
    wall0: Date.now(),
    acceptedMs: 0,
    ids: [],
    acks: [],
    seen: { "429": 0, "5xx": 0, network: 0, other: {} },
    retries: 0,
    givenUp: 0,
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      for (let key = next++; key < options.count; key = next++) {
        for (let attempt = 1; ; attempt++) {
          const r = await start(key).catch(() => null);
          if (r?.id) {
            b.ids.push(r.id);
            b.acks.push(r.ms);
            break;
          }
          if (!r) b.seen.network += 1;
          else if (r.status === 429) b.seen["429"] += 1;
          else if (r.status >= 500) b.seen["5xx"] += 1;
          else b.seen.other[String(r.status)] = (b.seen.other[String(r.status)] ?? 0) + 1;
          const retryable = !r || r.status === 429 || r.status >= 500;
          if (!retryable || attempt >= options.attempts) {
            b.givenUp += 1;
            break;
          }
          b.retries += 1;
          await sleep(options.backoffMs * attempt);
        }
      }
    }),
  );
  b.acceptedMs = performance.now() - b.t0;
  return b;
}

/** What a bulk read knows of a run: its status and, once ended, its own end time (epoch ms). */
export type RunEnd = { status: string; endedAt: number | null };

export type DrainOptions = {
  /** Pause between two sweeps. */
  readonly sweepMs: number;
  /** Give up when runs have not ended this long after the first sweep. */
  readonly withinMs: number;
  /** Give up sooner when every run left has been not found this long. */
  readonly notFoundMs: number;
};

export type Drain = {
  /** The ended runs' statuses and end times. */
  ends: Map<string, RunEnd>;
  /** The runs that had not ended when the sweeps stopped, with their last status (`not_found` if unread). */
  left: Map<string, string>;
  /** `performance.now()` of the sweep that saw the last run ended (or gave up). */
  seenAt: number;
  sweeps: number;
};

/** Sweeps `read` over the runs not yet ended until none is left (or the time is up). */
export async function drain(
  ids: readonly string[],
  read: (pending: readonly string[]) => Promise<Map<string, RunEnd>>,
  options: DrainOptions,
): Promise<Drain> {
  const ends = new Map<string, RunEnd>();
  const left = new Map<string, string>(ids.map((id) => [id, NOT_FOUND]));
  const d0 = performance.now();
  let sweeps = 0;
  for (;;) {
    const known = await read([...left.keys()]);
    sweeps += 1;
    for (const id of [...left.keys()]) {
      const end = known.get(id);
      if (end && ENDED.has(end.status)) {
        ends.set(id, end);
        left.delete(id);
      } else left.set(id, end?.status ?? NOT_FOUND);
    }
    const waited = performance.now() - d0;
    const allNotFound = [...left.values()].every((s) => s === NOT_FOUND);
    if (left.size === 0 || waited > options.withinMs || (allNotFound && waited > options.notFoundMs)) break;
    await sleep(options.sweepMs);
  }
  return { ends, left, seenAt: performance.now(), sweeps };
}
