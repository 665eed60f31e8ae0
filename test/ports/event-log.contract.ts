import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/ports/clock.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import { type NewRunEvent, type RunEvent, TERMINAL_EVENT_TYPES } from "../../src/ports/run-events.ts";
import { CanonicalJsonError } from "../../src/sdk/errors/canonical-json-error.ts";
import { RunTerminatedError } from "../../src/sdk/errors/run-terminated-error.ts";

/**
 * Gives `body` a fresh, empty log for `runId` that reads time from `clock`, and returns what
 * `body` returns. An adapter whose log only exists inside some scope (the Durable Object one runs
 * inside `runInDurableObject`) opens the scope here.
 */
export type WithLog = <T>(runId: string, clock: Clock, body: (log: EventLog) => Promise<T>) => Promise<T>;

export type EventLogContractOptions = {
  /**
   * True when calling `withLog` again with the same run id opens the same stored log (so a
   * second log object reads what the first appended and continues its `seq`).
   */
  readonly persistent?: boolean;
};

/** A clock the test moves by hand. */
export type FakeClock = Clock & { set(t: number): void; advance(ms: number): void };

export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let t = start;
  return {
    now: () => t,
    set: (value) => {
      t = value;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

function uniqueRunId(label: string): string {
  return `run_contract_${label}_${crypto.randomUUID().replaceAll("-", "")}`;
}

function started(stepPath: string, attempt = 1): NewRunEvent<"StepStarted"> {
  return { type: "StepStarted", payload: { stepPath, attempt } };
}

function succeeded(stepPath: string, output: unknown, attempt = 1): NewRunEvent<"StepSucceeded"> {
  return { type: "StepSucceeded", payload: { stepPath, attempt, output } };
}

const REQUESTED: NewRunEvent<"RunRequested"> = {
  type: "RunRequested",
  payload: { workflowId: "support.summarize-ticket", input: { ticketId: "T-1" }, trigger: { kind: "http" }, tenant: "default" },
};

const TERMINAL_EVENTS: Record<(typeof TERMINAL_EVENT_TYPES)[number], NewRunEvent> = {
  RunCompleted: {
    type: "RunCompleted",
    payload: {
      output: { ok: true },
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3, costUsd: null },
      versionId: "wfver_0123456789abcdef",
    },
  },
  RunFailed: { type: "RunFailed", payload: { causeCode: "step_failed", message: "boom" } },
  RunCancelled: { type: "RunCancelled", payload: { reason: "cancelled by request" } },
};

/** Appends `n` StepStarted events, in batches of `batch`. */
async function fill(log: EventLog, n: number, batch = n): Promise<void> {
  for (let i = 0; i < n; i += batch) {
    await log.append(Array.from({ length: Math.min(batch, n - i) }, (_, j) => started(`s${i + j + 1}`)));
  }
}

const seqs = (events: readonly RunEvent[]) => events.map((e) => e.seq);

/** Rejections a canonical-JSON log must refuse, each nested somewhere in an otherwise valid payload. */
const NON_CANONICAL: { name: string; reason: string; output: () => unknown }[] = [
  { name: "undefined", reason: "undefined", output: () => ({ summary: "x", detail: { note: undefined } }) },
  { name: "NaN", reason: "non_finite_number", output: () => ({ score: Number.NaN }) },
  { name: "Infinity", reason: "non_finite_number", output: () => [1, Number.POSITIVE_INFINITY] },
  { name: "a Date", reason: "date", output: () => ({ when: new Date(0) }) },
];

/**
 * The contract every {@link EventLog} adapter keeps. Call once per adapter, with a `withLog` that
 * opens a fresh log for each run id.
 */
export function eventLogContract(name: string, withLog: WithLog, options: EventLogContractOptions = {}): void {
  describe(`EventLog contract: ${name}`, () => {
    describe("append", () => {
      it("exposes the run id it was opened for and starts empty", async () => {
        const runId = uniqueRunId("empty");
        await withLog(runId, fakeClock(), async (log) => {
          expect(log.runId).toBe(runId);
          expect(await log.all()).toEqual([]);
          expect(await log.page({ after: 0, limit: 10 })).toEqual([]);
        });
      });

      it("assigns dense 1-based seq across batches and returns the appended events with runId, type, at and payload", async () => {
        const runId = uniqueRunId("seq");
        const clock = fakeClock(1_000);
        await withLog(runId, clock, async (log) => {
          const first = await log.append([REQUESTED]);
          expect(first).toEqual([{ seq: 1, runId, type: "RunRequested", at: 1_000, payload: REQUESTED.payload }]);

          clock.advance(250);
          const second = await log.append([started("a"), succeeded("a", { n: 1 }), started("b")]);
          expect(second).toEqual([
            { seq: 2, runId, type: "StepStarted", at: 1_250, payload: { stepPath: "a", attempt: 1 } },
            { seq: 3, runId, type: "StepSucceeded", at: 1_250, payload: { stepPath: "a", attempt: 1, output: { n: 1 } } },
            { seq: 4, runId, type: "StepStarted", at: 1_250, payload: { stepPath: "b", attempt: 1 } },
          ]);

          clock.set(5_000);
          const third = await log.append([succeeded("b", "done")]);
          expect(third).toEqual([
            { seq: 5, runId, type: "StepSucceeded", at: 5_000, payload: { stepPath: "b", attempt: 1, output: "done" } },
          ]);

          const all = await log.all();
          expect(all).toEqual([...first, ...second, ...third]);
          expect(seqs(all)).toEqual([1, 2, 3, 4, 5]);
          expect(all.map((e) => e.at)).toEqual([1_000, 1_250, 1_250, 1_250, 5_000]);
        });
      });

      it("reads the clock at append time, not when the log was opened", async () => {
        const clock = fakeClock(10);
        await withLog(uniqueRunId("clock"), clock, async (log) => {
          clock.set(42);
          const [event] = await log.append([REQUESTED]);
          expect(event?.at).toBe(42);
          expect((await log.all())[0]?.at).toBe(42);
        });
      });

      it("an empty append returns [] and changes nothing", async () => {
        const clock = fakeClock();
        await withLog(uniqueRunId("empty_append"), clock, async (log) => {
          expect(await log.append([])).toEqual([]);
          expect(await log.all()).toEqual([]);
          await log.append([REQUESTED, started("a")]);
          const before = await log.all();
          clock.advance(1);
          expect(await log.append([])).toEqual([]);
          expect(await log.all()).toEqual(before);
          const [next] = await log.append([started("b")]);
          expect(next?.seq).toBe(3);
        });
      });

      it("concurrent appends get dense seq in call order, each its own events, all in the log", async () => {
        const runId = uniqueRunId("concurrent");
        await withLog(runId, fakeClock(3), async (log) => {
          await log.append([REQUESTED]);
          // Sixteen appends issued together, as fan-out branches do, of 1 or 2 events each.
          const batches = Array.from({ length: 16 }, (_, i) =>
            i % 2 === 0 ? [started(`b${i}`)] : [started(`b${i}`), succeeded(`b${i}`, i)],
          );
          const results = await Promise.all(batches.map((batch) => log.append(batch)));
          let next = 2;
          results.forEach((appended, i) => {
            const expected = batches[i] as NewRunEvent[];
            expect(appended.map((e) => e.type)).toEqual(expected.map((e) => e.type));
            expect(appended.map((e) => e.payload)).toEqual(expected.map((e) => e.payload));
            expect(seqs(appended)).toEqual(expected.map(() => next++));
          });
          const all = await log.all();
          expect(seqs(all)).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
          expect(all.slice(1)).toEqual(results.flat());
        });
      });

      it("of concurrent appends after a terminal one, only the terminal's batch and those before it land", async () => {
        await withLog(uniqueRunId("concurrent_terminal"), fakeClock(), async (log) => {
          const first = log.append([REQUESTED, started("a")]);
          const end = log.append([TERMINAL_EVENTS.RunCancelled]);
          // Settled at once: it is refused before the earlier appends are durable.
          const late = log.append([started("late")]).then(
            () => null,
            (error: unknown) => error,
          );
          expect(seqs(await first)).toEqual([1, 2]);
          expect(seqs(await end)).toEqual([3]);
          expect(await late).toMatchObject({ code: "run_terminated" });
          expect(seqs(await log.all())).toEqual([1, 2, 3]);
        });
      });

      it("appends a batch of 1,000 events with seq 1..1000", async () => {
        const runId = uniqueRunId("thousand");
        await withLog(runId, fakeClock(7), async (log) => {
          const batch = Array.from({ length: 1_000 }, (_, i) => started(`step-${i + 1}`, (i % 3) + 1));
          const appended = await log.append(batch);
          const expectedSeqs = Array.from({ length: 1_000 }, (_, i) => i + 1);
          expect(seqs(appended)).toEqual(expectedSeqs);
          expect(appended[999]).toEqual({ seq: 1_000, runId, type: "StepStarted", at: 7, payload: { stepPath: "step-1000", attempt: 1 } });
          const all = await log.all();
          expect(seqs(all)).toEqual(expectedSeqs);
          expect(all).toEqual(appended);
          const [next] = await log.append([started("after")]);
          expect(next?.seq).toBe(1_001);
        });
      });
    });

    describe("payloads are canonical JSON data", () => {
      it("come back equal to what was appended, whatever the key order", async () => {
        const output = {
          zeta: [3, { y: "y", x: null }],
          alpha: { nested: { b: false, a: 1.5 } },
          unicode: "é ✓ \u2028",
          big: 1e21,
          neg: -12,
        };
        await withLog(uniqueRunId("payload_order"), fakeClock(), async (log) => {
          const [appended] = await log.append([succeeded("a", output)]);
          const reordered = {
            attempt: 1,
            output: { unicode: "é ✓ \u2028", neg: -12, big: 1e21, alpha: { nested: { a: 1.5, b: false } }, zeta: [3, { x: null, y: "y" }] },
            stepPath: "a",
          };
          expect(appended?.payload).toEqual(reordered);
          const [stored] = await log.all();
          expect(stored?.payload).toEqual(reordered);
          const [paged] = await log.page({ after: 0, limit: 1 });
          expect(paged?.payload).toEqual(reordered);
        });
      });

      it("are normalized as JSON: -0 reads back as 0", async () => {
        await withLog(uniqueRunId("payload_negzero"), fakeClock(), async (log) => {
          const zeroOf = (event: RunEvent | undefined) => (event?.payload as { output?: { zero?: number } } | undefined)?.output?.zero;
          const [appended] = await log.append([succeeded("a", { zero: -0 })]);
          expect(Object.is(zeroOf(appended), 0)).toBe(true);
          const [stored] = await log.all();
          expect(Object.is(zeroOf(stored), 0)).toBe(true);
        });
      });

      it("are copied: mutating the appended payload object afterwards does not change the log", async () => {
        await withLog(uniqueRunId("payload_copy"), fakeClock(), async (log) => {
          const output = { items: ["a"], meta: { n: 1 } };
          await log.append([succeeded("a", output)]);
          output.items.push("b");
          output.meta.n = 2;
          const [stored] = await log.all();
          expect(stored?.payload).toEqual({ stepPath: "a", attempt: 1, output: { items: ["a"], meta: { n: 1 } } });
          const [paged] = await log.page({ after: 0, limit: 1 });
          expect(paged?.payload).toEqual({ stepPath: "a", attempt: 1, output: { items: ["a"], meta: { n: 1 } } });
        });
      });

      for (const bad of NON_CANONICAL) {
        it(`refuses a payload containing ${bad.name} with canonical_json_rejected and appends nothing of the batch`, async () => {
          const clock = fakeClock();
          await withLog(uniqueRunId(`payload_${bad.reason}`), clock, async (log) => {
            await log.append([REQUESTED]);
            const before = await log.all();
            clock.advance(10);
            // The bad event is last, after a valid one: the whole batch is refused.
            const attempt = log.append([started("ok"), succeeded("bad", bad.output())]);
            await expect(attempt).rejects.toBeInstanceOf(CanonicalJsonError);
            await expect(attempt).rejects.toMatchObject({
              name: "CanonicalJsonError",
              code: "canonical_json_rejected",
              reason: bad.reason,
            });
            expect(await log.all()).toEqual(before);
            expect(await log.page({ after: 0, limit: 100 })).toEqual(before);
            // seq stays dense: the refused batch consumed no numbers.
            const [next] = await log.append([started("next")]);
            expect(next?.seq).toBe(2);
            expect(seqs(await log.all())).toEqual([1, 2]);
          });
        });
      }

      it("refuses a bad payload in the first event of the very first batch, leaving the log empty", async () => {
        await withLog(uniqueRunId("payload_first"), fakeClock(), async (log) => {
          await expect(log.append([succeeded("bad", { when: new Date(0) }), started("ok")])).rejects.toMatchObject({
            code: "canonical_json_rejected",
          });
          expect(await log.all()).toEqual([]);
          const [first] = await log.append([REQUESTED]);
          expect(first?.seq).toBe(1);
        });
      });
    });

    describe("all", () => {
      it("returns a copy: mutating the returned array does not change the log", async () => {
        await withLog(uniqueRunId("all_copy"), fakeClock(), async (log) => {
          await log.append([REQUESTED, started("a"), succeeded("a", 1)]);
          const snapshot = await log.all();
          const expected = structuredClone(snapshot);
          snapshot.pop();
          snapshot.reverse();
          snapshot.push({ seq: 99, runId: "other", type: "RunCancelled", at: 0, payload: { reason: "forged" } });
          expect(await log.all()).toEqual(expected);
          // A forged terminal in the copy does not terminate the log.
          const [next] = await log.append([started("b")]);
          expect(next?.seq).toBe(4);
        });
      });

      it("mutating the array append returned does not change the log", async () => {
        await withLog(uniqueRunId("append_copy"), fakeClock(), async (log) => {
          const appended = await log.append([REQUESTED, started("a")]);
          const expected = structuredClone(appended);
          appended.length = 0;
          expect(await log.all()).toEqual(expected);
        });
      });

      it("reflects appends made after an earlier all()", async () => {
        await withLog(uniqueRunId("all_fresh"), fakeClock(), async (log) => {
          expect(await log.all()).toEqual([]);
          await log.append([REQUESTED]);
          expect(seqs(await log.all())).toEqual([1]);
          await log.append([started("a"), started("b")]);
          const all = await log.all();
          expect(seqs(all)).toEqual([1, 2, 3]);
          expect(all.map((e) => e.type)).toEqual(["RunRequested", "StepStarted", "StepStarted"]);
        });
      });
    });

    describe("page", () => {
      it("returns events with seq > after, at most limit of them, in order", async () => {
        await withLog(uniqueRunId("page"), fakeClock(), async (log) => {
          await fill(log, 10, 3);
          const all = await log.all();
          expect(await log.page({ after: 0, limit: 3 })).toEqual(all.slice(0, 3));
          expect(await log.page({ after: 3, limit: 3 })).toEqual(all.slice(3, 6));
          expect(await log.page({ after: 6, limit: 3 })).toEqual(all.slice(6, 9));
          expect(await log.page({ after: 9, limit: 3 })).toEqual(all.slice(9, 10));
          expect(await log.page({ after: 0, limit: 100 })).toEqual(all);
          expect(await log.page({ after: 4, limit: 1 })).toEqual([all[4]]);
        });
      });

      it("walking pages by the last seq visits every event exactly once", async () => {
        await withLog(uniqueRunId("page_walk"), fakeClock(), async (log) => {
          await fill(log, 23, 5);
          const walked: RunEvent[] = [];
          let after = 0;
          for (;;) {
            const page = await log.page({ after, limit: 4 });
            if (page.length === 0) break;
            expect(page.length).toBeLessThanOrEqual(4);
            walked.push(...page);
            after = page[page.length - 1]?.seq ?? after;
          }
          expect(walked).toEqual(await log.all());
          expect(seqs(walked)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
        });
      });

      it("after at or beyond the end gives []", async () => {
        await withLog(uniqueRunId("page_end"), fakeClock(), async (log) => {
          expect(await log.page({ after: 0, limit: 5 })).toEqual([]);
          await fill(log, 5);
          expect(await log.page({ after: 5, limit: 5 })).toEqual([]);
          expect(await log.page({ after: 6, limit: 5 })).toEqual([]);
          expect(await log.page({ after: 1_000_000, limit: 5 })).toEqual([]);
        });
      });

      it("filters by types before applying limit", async () => {
        await withLog(uniqueRunId("page_types"), fakeClock(), async (log) => {
          await log.append([REQUESTED, started("a"), succeeded("a", 1), started("b"), succeeded("b", 2), started("c"), succeeded("c", 3)]);
          const all = await log.all();
          const successes = all.filter((e) => e.type === "StepSucceeded");
          expect(seqs(successes)).toEqual([3, 5, 7]);

          expect(await log.page({ after: 0, limit: 10, types: ["StepSucceeded"] })).toEqual(successes);
          expect(await log.page({ after: 0, limit: 2, types: ["StepSucceeded"] })).toEqual(successes.slice(0, 2));
          expect(await log.page({ after: 3, limit: 10, types: ["StepSucceeded"] })).toEqual(successes.slice(1));
          expect(await log.page({ after: 4, limit: 1, types: ["StepSucceeded"] })).toEqual([successes[1]]);
          expect(await log.page({ after: 7, limit: 10, types: ["StepSucceeded"] })).toEqual([]);

          const several = await log.page({ after: 0, limit: 10, types: ["RunRequested", "StepSucceeded"] });
          expect(seqs(several)).toEqual([1, 3, 5, 7]);
          expect(await log.page({ after: 0, limit: 10, types: ["RunCompleted"] })).toEqual([]);
          // An empty type list is no filter.
          expect(await log.page({ after: 0, limit: 10, types: [] })).toEqual(all);
        });
      });
    });

    describe("terminal events end the log", () => {
      for (const terminal of TERMINAL_EVENT_TYPES) {
        it(`after ${terminal}, append throws RunTerminatedError (run_terminated) and appends nothing`, async () => {
          const runId = uniqueRunId(`terminal_${terminal}`);
          const clock = fakeClock();
          await withLog(runId, clock, async (log) => {
            await log.append([REQUESTED, started("a")]);
            const [end] = await log.append([TERMINAL_EVENTS[terminal]]);
            expect(end).toMatchObject({ seq: 3, type: terminal, runId });
            const before = await log.all();
            clock.advance(1);

            const attempt = log.append([started("late")]);
            await expect(attempt).rejects.toBeInstanceOf(RunTerminatedError);
            await expect(attempt).rejects.toMatchObject({ name: "RunTerminatedError", code: "run_terminated" });
            // A second terminal is refused the same way.
            await expect(log.append([TERMINAL_EVENTS.RunCancelled])).rejects.toMatchObject({ code: "run_terminated" });
            // So is a larger batch.
            await expect(log.append([started("x"), started("y")])).rejects.toMatchObject({ code: "run_terminated" });

            expect(await log.all()).toEqual(before);
            expect(seqs(await log.all())).toEqual([1, 2, 3]);
            expect(await log.page({ after: 3, limit: 10 })).toEqual([]);
          });
        });
      }

      it("a terminal event may itself end a multi-event batch", async () => {
        await withLog(uniqueRunId("terminal_batch"), fakeClock(), async (log) => {
          const appended = await log.append([REQUESTED, started("a"), succeeded("a", 1), TERMINAL_EVENTS.RunCompleted]);
          expect(seqs(appended)).toEqual([1, 2, 3, 4]);
          await expect(log.append([started("b")])).rejects.toMatchObject({ code: "run_terminated" });
          expect(seqs(await log.all())).toEqual([1, 2, 3, 4]);
        });
      });
    });

    if (options.persistent) {
      describe("persistence", () => {
        it("a log reopened for the same run reads the same events and continues seq", async () => {
          const runId = uniqueRunId("reopen");
          const clock = fakeClock(100);
          const written = await withLog(runId, clock, async (log) => {
            await log.append([REQUESTED, started("a")]);
            return log.all();
          });
          clock.set(200);
          await withLog(runId, clock, async (log) => {
            expect(await log.all()).toEqual(written);
            const [next] = await log.append([succeeded("a", { ok: true })]);
            expect(next).toEqual({
              seq: 3,
              runId,
              type: "StepSucceeded",
              at: 200,
              payload: { stepPath: "a", attempt: 1, output: { ok: true } },
            });
            await log.append([TERMINAL_EVENTS.RunFailed]);
          });
          await withLog(runId, clock, async (log) => {
            expect(seqs(await log.all())).toEqual([1, 2, 3, 4]);
            await expect(log.append([started("late")])).rejects.toMatchObject({ code: "run_terminated" });
          });
        });
      });
    }
  });
}
