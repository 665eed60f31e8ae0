/**
 * Starting many runs and reading when they end, for the scenarios that load the start path
 * (trigger-throughput, burst). Ours start through `POST /v1/lwir/runs` with the one-step no-op
 * LWIR (no planner, so the trigger path is what is measured); the peer through the bench route
 * that calls `create()` on a one-step Workflow. Both are read back one run at a time, the way a
 * client of each would: `GET /v1/runs/:id`, and the instance's `status()` through a bench route.
 */
import type { BenchClient } from "./bench-client.ts";
import { sleep } from "./bench-dev.ts";

/** One start: the run id when accepted (null otherwise), the HTTP status and the round trip. */
export type StartAnswer = { id: string | null; status: number; ms: number };

/** Our terminal statuses and the Workflows peer's (`complete`, `errored`, `terminated`). */
export const ENDED = new Set(["completed", "failed", "cancelled", "complete", "errored", "terminated"]);
/** The status of a run that finished its work, for ours and the peer. */
export const DONE = { ours: "completed", peer: "complete" } as const;
/** What a status reader answers for a run it cannot find (a lost run, unless it turns up later). */
export const NOT_FOUND = "not_found";

/** The one-step no-op LWIR the start-path scenarios run. */
export async function noopLwir(api: BenchClient): Promise<unknown> {
  return (await api.ok<{ lwir: unknown }>("POST", "/bench/lwir", { shape: { kind: "noop-chain", n: 1 } })).lwir;
}

/**
 * Starts one run of `lwir`. With a `key`, the start is idempotent: it is sent as the
 * `Idempotency-Key` header, so a retry answers the same run (whose id the key derives).
 */
export function startOurs(api: BenchClient, lwir: unknown) {
  return async (key?: string): Promise<StartAnswer> => {
    const r = await api.call<{ run?: { runId: string } }>(
      "POST",
      "/v1/lwir/runs",
      { lwir, input: {} },
      key ? { "idempotency-key": key } : undefined,
    );
    return { id: (r.status === 202 || r.status === 200) && r.body?.run ? r.body.run.runId : null, status: r.status, ms: r.ms };
  };
}

/** Creates one instance of the peer's one-step Workflow. */
export function startPeer(api: BenchClient) {
  return async (): Promise<StartAnswer> => {
    const r = await api.call<{ id?: string }>("POST", "/bench/peer-trigger");
    return { id: r.status === 202 && r.body?.id ? r.body.id : null, status: r.status, ms: r.ms };
  };
}

/** Our run's status as `GET /v1/runs/:id` answers it; {@link NOT_FOUND} on a 404. */
export function ourStatus(api: BenchClient) {
  return async (id: string): Promise<string> => {
    const r = await api.call<{ run?: { status: string } }>("GET", `/v1/runs/${id}`);
    if (r.status === 404) return NOT_FOUND;
    return r.body?.run?.status ?? `http_${r.status}`;
  };
}

/** The peer instance's status; the route fails (500, not JSON) only when `get()` finds no instance. */
export function peerStatus(api: BenchClient) {
  return async (id: string): Promise<string> => {
    try {
      const r = await api.call<{ status: string }>("GET", `/bench/peer-status/${id}`);
      return r.status === 200 ? r.body.status : NOT_FOUND;
    } catch {
      return NOT_FOUND;
    }
  };
}

export type CompletionOptions = {
  /** Concurrent readers (default 8). */
  readonly checkers?: number;
  /** Pause between two reads of a run that has not ended (default 200 ms). */
  readonly pollMs?: number;
  /** Give up on a run that has not ended this long after the reading began (default 300 s). */
  readonly withinMs?: number;
  /** Give up on a run not found this long after the reading began (default: `withinMs`). */
  readonly notFoundMs?: number;
};

/** How the runs ended (status → count) and when the last was seen ended. */
export type Completion = { ended: Record<string, number>; allDoneMs: number; doneAt: number };

/**
 * Reads every id's status until it has ended (or the time is up), `checkers` at a time, each
 * reader taking the next id when its run has ended. `doneAt` is `performance.now()` when the last
 * was seen ended: an upper bound on the real end, by up to one `pollMs` and one read.
 */
export async function completion(
  ids: readonly string[],
  statusOf: (id: string) => Promise<string>,
  options: CompletionOptions = {},
): Promise<Completion> {
  const { checkers = 8, pollMs = 200, withinMs = 300_000 } = options;
  const notFoundMs = options.notFoundMs ?? withinMs;
  const ended: Record<string, number> = {};
  const c0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: checkers }, async () => {
      for (let i = next++; i < ids.length; i = next++) {
        for (;;) {
          const status = await statusOf(ids[i] as string);
          const waited = performance.now() - c0;
          if (ENDED.has(status) || waited > withinMs || (status === NOT_FOUND && waited > notFoundMs)) {
            ended[status] = (ended[status] ?? 0) + 1;
            break;
          }
          await sleep(pollMs);
        }
      }
    }),
  );
  const doneAt = performance.now();
  return { ended, allDoneMs: doneAt - c0, doneAt };
}
