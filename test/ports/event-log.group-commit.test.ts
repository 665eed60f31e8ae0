import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DurableObjectEventLog } from "../../src/adapters/do-sqlite/do-event-log.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";
import { fakeClock } from "./event-log.contract.ts";

// Group commit in the Durable Object log: appends share a `storage.sync()`, yet none resolves
// before a sync that started after its rows were written has completed.

const started = (stepPath: string): NewRunEvent<"StepStarted"> => ({ type: "StepStarted", payload: { stepPath, attempt: 1 } });
const seqs = (events: readonly RunEvent[]) => events.map((e) => e.seq);
const stubFor = (runId: string) => env.RUNS.get(env.RUNS.idFromName(runId));
const uniqueRunId = (label: string) => `run_group_${label}_${crypto.randomUUID().replaceAll("-", "")}`;
/** Lets queued promise callbacks run (the syncs below are held by gates, not by time). */
const tick = () => new Promise<void>((done) => setTimeout(done, 0));

/** The object's storage, with each `sync()` counted and, when `gated`, held until released. */
function observedStorage(storage: DurableObjectStorage, gated: boolean) {
  const releases: (() => void)[] = [];
  let calls = 0;
  const wrapped = {
    sql: storage.sql,
    sync: () => {
      calls += 1;
      // The real sync starts now (so it covers exactly what it would); only its completion is held.
      const real = storage.sync();
      if (!gated) return real;
      const gate = new Promise<void>((open) => releases.push(open));
      return Promise.all([real, gate]).then(() => undefined);
    },
  } as unknown as DurableObjectStorage;
  return { storage: wrapped, syncs: () => calls, release: (i: number) => releases[i]?.() };
}

describe("DurableObjectEventLog group commit", () => {
  it("appends issued together share one sync; those issued while it runs share the next", async () => {
    const runId = uniqueRunId("share");
    await runInDurableObject(stubFor(runId), async (_instance, state) => {
      const observed = observedStorage(state.storage, false);
      const log = new DurableObjectEventLog(observed.storage, runId, fakeClock());
      const first = Array.from({ length: 16 }, (_, i) => log.append([started(`a${i}`)]));
      await tick();
      expect(observed.syncs()).toBe(1);
      const second = Array.from({ length: 16 }, (_, i) => log.append([started(`b${i}`)]));
      const results = await Promise.all([...first, ...second]);
      expect(observed.syncs()).toBe(2);
      expect(results.map((r) => seqs(r))).toEqual(Array.from({ length: 32 }, (_, i) => [i + 1]));
      expect(seqs(await log.all())).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    });
  });

  it("an append written while a sync runs resolves only after a later sync has completed", async () => {
    const runId = uniqueRunId("inflight");
    await runInDurableObject(stubFor(runId), async (_instance, state) => {
      const observed = observedStorage(state.storage, true);
      const log = new DurableObjectEventLog(observed.storage, runId, fakeClock());
      const resolved: string[] = [];
      const a = log.append([started("a")]).then((r) => {
        resolved.push("a");
        return r;
      });
      await tick();
      expect(observed.syncs()).toBe(1);
      // Sync 1 is in flight: b's row is written now, after sync 1 started.
      const b = log.append([started("b")]).then((r) => {
        resolved.push("b");
        return r;
      });
      await tick();
      expect(observed.syncs()).toBe(1);
      observed.release(0);
      expect(seqs(await a)).toEqual([1]);
      await tick();
      expect(resolved).toEqual(["a"]);
      expect(observed.syncs()).toBe(2);
      observed.release(1);
      expect(seqs(await b)).toEqual([2]);
      expect(resolved).toEqual(["a", "b"]);
    });
  });

  it("a failed sync rejects the appends waiting on it; later appends still get their own sync", async () => {
    const runId = uniqueRunId("failed");
    await runInDurableObject(stubFor(runId), async (_instance, state) => {
      let failNext = true;
      const storage = {
        sql: state.storage.sql,
        sync: () => {
          if (!failNext) return state.storage.sync();
          failNext = false;
          return Promise.reject(new Error("disk on fire"));
        },
      } as unknown as DurableObjectStorage;
      const log = new DurableObjectEventLog(storage, runId, fakeClock());
      const failed = [log.append([started("a")]), log.append([started("b")])];
      await expect(failed[0]).rejects.toThrow("disk on fire");
      await expect(failed[1]).rejects.toThrow("disk on fire");
      expect(seqs(await log.append([started("c")]))).toEqual([3]);
    });
  });

  it("an abort right after a shared sync loses no acknowledged append and leaves seq dense", async () => {
    const runId = uniqueRunId("abort");
    const acknowledged: number[] = [];
    await runInDurableObject(stubFor(runId), async (_instance, state) => {
      let aborted = false;
      const log = new DurableObjectEventLog(state.storage, runId, fakeClock(), {
        afterAppend: (events) => {
          acknowledged.push(...seqs(events));
          // Crash once the first group (written in one turn, one sync) is acknowledged, while the
          // second group (written during that sync) waits for its own.
          if (!aborted && acknowledged.length === 4) {
            aborted = true;
            state.abort("crash inside a group commit");
          }
        },
      });
      const first = Array.from({ length: 4 }, (_, i) => log.append([started(`a${i}`)]));
      await tick();
      const second = Array.from({ length: 4 }, (_, i) => log.append([started(`b${i}`)]));
      await Promise.allSettled([...first, ...second]);
    }).catch(() => undefined);
    expect(acknowledged.slice(0, 4).sort()).toEqual([1, 2, 3, 4]);
    const stored = await runInDurableObject(stubFor(runId), (_instance, state) =>
      new DurableObjectEventLog(state.storage, runId, fakeClock()).all(),
    );
    // Every acknowledged event survived; whatever else survived is a dense continuation.
    expect(seqs(stored)).toEqual(Array.from({ length: stored.length }, (_, i) => i + 1));
    for (const seq of acknowledged) expect(seqs(stored)).toContain(seq);
    expect(stored.slice(0, 4).map((e) => (e.payload as { stepPath: string }).stepPath)).toEqual(["a0", "a1", "a2", "a3"]);
  });
});
