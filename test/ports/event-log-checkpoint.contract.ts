import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/ports/clock.ts";
import { CHECKPOINT_CHARS_PER_EVENT, type EventLog, type LogFold } from "../../src/ports/event-log.ts";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-events.ts";
import { fakeClock } from "./event-log.contract.ts";

/** Gives `body` the log of `runId` opened with `fold` (none: no checkpoints); as `WithLog` otherwise. */
export type WithFoldedLog = <T>(
  runId: string,
  clock: Clock,
  fold: LogFold<unknown> | undefined,
  body: (log: EventLog) => Promise<T>,
) => Promise<T>;

/** A fold the log knows nothing about: how many events, the last seq, and how many of each type. */
type Tally = { readonly n: number; readonly last: number; readonly types: Readonly<Record<string, number>> };

/**
 * A tally fold checkpointed every `every` events; `applied` counts the events it was given to fold.
 * `padding` characters are added to each checkpoint's text (a large state).
 */
function tallyFold(every: number, version = 1, padding = 0): LogFold<unknown> & { applied: number } {
  const fold = {
    every,
    applied: 0,
    initial: { n: 0, last: 0, types: {} } as Tally,
    decode(text: string): Tally | null {
      const parsed = JSON.parse(text) as { v: number; tally: Tally };
      return parsed.v === version ? parsed.tally : null;
    },
    apply(state: unknown, events: readonly RunEvent[]): Tally {
      fold.applied += events.length;
      let { n, last, types } = state as Tally;
      for (const e of events) {
        if (e.seq !== last + 1) throw new Error(`tally: ${e.seq} after ${last}`);
        n += 1;
        last = e.seq;
        types = { ...types, [e.type]: (types[e.type] ?? 0) + 1 };
      }
      return { n, last, types };
    },
    encode: (state: unknown) => JSON.stringify({ v: version, tally: state, padding: "x".repeat(padding) }),
  };
  return fold;
}

const uniqueRunId = (label: string) => `run_checkpoint_${label}_${crypto.randomUUID().replaceAll("-", "")}`;
const started = (i: number): NewRunEvent => ({ type: "StepStarted", payload: { stepPath: `s${i}`, attempt: 1 } });
const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => started(from + i));

async function tallyOf(log: EventLog, fold: LogFold<unknown>): Promise<{ seq: number; tally: Tally } | null> {
  const checkpoint = await log.checkpoint();
  return checkpoint ? { seq: checkpoint.seq, tally: fold.decode(checkpoint.state) as Tally } : null;
}

/**
 * The fold checkpoints every {@link EventLog} adapter keeps: written by the first append after which
 * `every` events (more for a large checkpoint) have passed since the newest one, covering the log up
 * to that append's last event, never ahead of the log.
 */
export function eventLogCheckpointContract(name: string, withLog: WithFoldedLog, options: { persistent?: boolean } = {}): void {
  describe(`EventLog fold checkpoints: ${name}`, () => {
    it("a log opened without a fold has no checkpoint", async () => {
      await withLog(uniqueRunId("none"), fakeClock(), undefined, async (log) => {
        await log.append(batch(1, 25));
        expect(await log.checkpoint()).toBeNull();
      });
    });

    it("the append that completes `every` events since the newest checkpoint checkpoints the fold up to its own last event", async () => {
      const fold = tallyFold(4);
      await withLog(uniqueRunId("cross"), fakeClock(), fold, async (log) => {
        await log.append(batch(1, 3));
        expect(await log.checkpoint()).toBeNull();
        await log.append(batch(4, 1));
        expect(await tallyOf(log, fold)).toEqual({ seq: 4, tally: { n: 4, last: 4, types: { StepStarted: 4 } } });
        // 5..10 passes 4 more: the checkpoint covers the whole batch.
        await log.append([
          { type: "RunRequested", payload: { workflowId: "w", input: 1, trigger: { kind: "http" }, tenant: "t" } },
          ...batch(6, 5),
        ]);
        expect(await tallyOf(log, fold)).toEqual({ seq: 10, tally: { n: 10, last: 10, types: { StepStarted: 9, RunRequested: 1 } } });
        await log.append(batch(11, 1));
        expect((await log.checkpoint())?.seq).toBe(10);
        // No event was folded twice: a checkpoint folds on from the previous one, never from the start.
        expect(fold.applied).toBeLessThanOrEqual(11);
      });
    });

    it("concurrent appends leave a checkpoint equal to the fold of the log up to its seq", async () => {
      const fold = tallyFold(5);
      await withLog(uniqueRunId("concurrent"), fakeClock(), fold, async (log) => {
        await Promise.all(Array.from({ length: 16 }, (_, i) => log.append(batch(i * 3, (i % 3) + 1))));
        const all = await log.all();
        const checkpoint = await tallyOf(log, fold);
        expect(checkpoint).not.toBeNull();
        const seq = checkpoint?.seq ?? 0;
        expect(seq).toBeGreaterThanOrEqual(all.length - 4);
        expect(checkpoint?.tally).toEqual(fold.apply(fold.initial, all.slice(0, seq)));
      });
    });

    it("a large checkpoint is spaced by its size: one event per CHECKPOINT_CHARS_PER_EVENT characters of it", async () => {
      // Every 2 events, but each checkpoint is over 1,000 characters: the next is due 11 events after it.
      const fold = tallyFold(2, 1, 1_000);
      await withLog(uniqueRunId("sparse"), fakeClock(), fold, async (log) => {
        const seqs: number[] = [];
        for (let i = 1; i <= 30; i++) {
          await log.append(batch(i, 1));
          const seq = (await log.checkpoint())?.seq;
          if (seq !== undefined && seq !== seqs.at(-1)) seqs.push(seq);
        }
        // Each text is 1,060-odd characters: 11 events of CHECKPOINT_CHARS_PER_EVENT (100) each.
        expect(CHECKPOINT_CHARS_PER_EVENT).toBe(100);
        expect(seqs).toEqual([2, 13, 24]);
      });
    });

    it("a refused append writes no checkpoint", async () => {
      const fold = tallyFold(3);
      await withLog(uniqueRunId("refused"), fakeClock(), fold, async (log) => {
        await log.append([...batch(1, 1), { type: "RunCancelled", payload: { reason: "r" } }]);
        await expect(log.append(batch(3, 4))).rejects.toMatchObject({ code: "run_terminated" });
        expect(await log.checkpoint()).toBeNull();
      });
    });

    it("a long log checkpoints as it grows: 2,500 events in appends of 100, every 1,000", async () => {
      const fold = tallyFold(1_000);
      await withLog(uniqueRunId("long"), fakeClock(), fold, async (log) => {
        for (let i = 0; i < 25; i++) await log.append(batch(i * 100, 100));
        expect(await tallyOf(log, fold)).toEqual({ seq: 2_000, tally: { n: 2_000, last: 2_000, types: { StepStarted: 2_000 } } });
        expect(fold.applied).toBeLessThanOrEqual(2_500);
      });
    });

    if (options.persistent) {
      it("a reopened log keeps its checkpoint and folds on from it, not from the first event", async () => {
        const runId = uniqueRunId("reopen");
        const clock = fakeClock();
        await withLog(runId, clock, tallyFold(4), (log) => log.append(batch(1, 9)));
        const fold = tallyFold(4);
        await withLog(runId, clock, fold, async (log) => {
          expect(await tallyOf(log, fold)).toEqual({ seq: 9, tally: { n: 9, last: 9, types: { StepStarted: 9 } } });
          await log.append(batch(10, 3));
          expect((await log.checkpoint())?.seq).toBe(9);
          await log.append(batch(13, 1));
          expect(await tallyOf(log, fold)).toEqual({ seq: 13, tally: { n: 13, last: 13, types: { StepStarted: 13 } } });
          expect(fold.applied).toBe(4);
        });
      });

      it("a checkpoint of another fold version is ignored: the next one due folds from the first event", async () => {
        const runId = uniqueRunId("version");
        const clock = fakeClock();
        await withLog(runId, clock, tallyFold(4, 1), (log) => log.append(batch(1, 5)));
        const next = tallyFold(4, 2);
        await withLog(runId, clock, next, async (log) => {
          expect(next.decode((await log.checkpoint())?.state ?? "")).toBeNull();
          await log.append(batch(6, 4));
          expect(await tallyOf(log, next)).toEqual({ seq: 9, tally: { n: 9, last: 9, types: { StepStarted: 9 } } });
        });
      });
    }
  });
}
