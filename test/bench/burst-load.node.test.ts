/**
 * The burst scenario's client logic (bench/support/burst-load.ts, run-listing.ts) against fake
 * servers: a key is retried with the same key on a 429, a 5xx or a dropped connection and given up
 * on another 4xx or after its last try; the drain sweeps until every run has ended, or gives up on
 * runs never found; the listing pages until it passes the burst's start.
 */
import { describe, expect, it } from "vitest";
import type { BenchClient } from "../../bench/support/bench-client.ts";
import { burst, drain, type RunEnd } from "../../bench/support/burst-load.ts";
import { listRuns, type RunSummary } from "../../bench/support/run-listing.ts";
import type { StartAnswer } from "../../bench/support/run-starts.ts";

const OPTIONS = { count: 12, connections: 4, attempts: 3, backoffMs: 1 };

describe("burst", () => {
  it("retries a key with the same key on 429, 5xx and dropped connections, and gives up on other 4xx", async () => {
    const tries = new Map<number, number>();
    // key → the answers of its first tries; afterwards it is accepted.
    const script: Record<number, (number | "drop")[]> = { 3: [503], 5: ["drop"], 7: [429, 429], 9: [400] };
    const start = async (key: number): Promise<StartAnswer> => {
      const n = tries.get(key) ?? 0;
      tries.set(key, n + 1);
      const answer = script[key]?.[n];
      if (answer === "drop") throw new TypeError("fetch failed");
      if (answer !== undefined) return { id: null, status: answer, ms: 1 };
      return { id: `run_${key}`, status: 202, ms: 1 };
    };
    const b = await burst(start, OPTIONS);
    expect(b.ids.toSorted()).toEqual(
      Array.from({ length: 12 }, (_, k) => `run_${k}`)
        .filter((id) => id !== "run_9")
        .toSorted(),
    );
    expect(b.acks).toHaveLength(11);
    expect(b.seen).toEqual({ "429": 2, "5xx": 1, network: 1, other: { "400": 1 } });
    expect(b.retries).toBe(4);
    expect(b.givenUp).toBe(1);
    expect(tries.get(7)).toBe(3);
    expect(tries.get(9)).toBe(1);
  });

  it("gives a key up after its last try", async () => {
    const b = await burst(async (key) => (key === 0 ? { id: null, status: 500, ms: 1 } : { id: `run_${key}`, status: 202, ms: 1 }), {
      ...OPTIONS,
      count: 2,
    });
    expect(b.ids).toEqual(["run_1"]);
    expect(b.seen["5xx"]).toBe(OPTIONS.attempts);
    expect(b.retries).toBe(OPTIONS.attempts - 1);
    expect(b.givenUp).toBe(1);
  });
});

describe("drain", () => {
  it("sweeps until every run has ended, reading only the runs left", async () => {
    let sweep = 0;
    const asked: number[] = [];
    const read = async (pending: readonly string[]) => {
      sweep += 1;
      asked.push(pending.length);
      // run a ends on the first sweep, b on the second, c on the third (failed).
      const known = new Map<string, RunEnd>([
        ["a", { status: "completed", endedAt: 10 }],
        ["b", sweep >= 2 ? { status: "completed", endedAt: 20 } : { status: "running", endedAt: null }],
        ["c", sweep >= 3 ? { status: "failed", endedAt: 30 } : { status: "running", endedAt: null }],
      ]);
      return known;
    };
    const d = await drain(["a", "b", "c"], read, { sweepMs: 1, withinMs: 5_000, notFoundMs: 5_000 });
    expect(d.sweeps).toBe(3);
    expect(asked).toEqual([3, 2, 1]);
    expect([...d.ends]).toEqual([
      ["a", { status: "completed", endedAt: 10 }],
      ["b", { status: "completed", endedAt: 20 }],
      ["c", { status: "failed", endedAt: 30 }],
    ]);
    expect(d.left.size).toBe(0);
  });

  it("gives up on runs that are never found, and reports them left", async () => {
    const read = async () => new Map<string, RunEnd>([["a", { status: "completed", endedAt: 1 }]]);
    const d = await drain(["a", "lost"], read, { sweepMs: 5, withinMs: 5_000, notFoundMs: 30 });
    expect([...d.ends.keys()]).toEqual(["a"]);
    expect([...d.left]).toEqual([["lost", "not_found"]]);
  });
});

describe("listRuns", () => {
  it("follows nextCursor until a page holds only runs created before the burst", async () => {
    const row = (runId: string, createdAt: number): RunSummary => ({
      runId,
      workflowId: "w",
      status: "completed",
      createdAt,
      updatedAt: createdAt,
    });
    const pages: Record<string, { runs: RunSummary[]; nextCursor: string | null }> = {
      "": { runs: [row("r4", 400), row("r3", 300)], nextCursor: "p2" },
      p2: { runs: [row("r2", 200), row("r1", 100)], nextCursor: "p3" },
      p3: { runs: [row("r0", 50)], nextCursor: "p4" },
    };
    const paths: string[] = [];
    const api = {
      ok: async (_method: string, path: string) => {
        paths.push(path);
        return pages[new URL(path, "http://x").searchParams.get("cursor") ?? ""];
      },
    } as unknown as BenchClient;
    const { runs, pages: read } = await listRuns(api, "w", 150);
    expect(read).toBe(3);
    expect(runs.map((r) => r.runId)).toEqual(["r4", "r3", "r2", "r1", "r0"]);
    expect(paths[0]).toBe("/v1/runs?workflow=w&limit=200");
  });
});
