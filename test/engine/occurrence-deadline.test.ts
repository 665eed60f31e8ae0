/**
 * `onTrigger.occurrenceTimeoutMs` at the unit: a body that ignores its abort signal still fails at
 * the deadline, and whether a body finished on time is read from the log's times, not from when a
 * slice (perhaps one resumed after a crash) got to record it. The timer and clock are injected.
 */
import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { withinOccurrenceDeadline } from "../../src/engine/occurrence-deadline.ts";
import { RunFailure } from "../../src/engine/run-failure.ts";
import type { HarnessContext } from "../../src/harness/harness-context.ts";
import { Journal } from "../../src/harness/journal.ts";
import type { NewRunEvent } from "../../src/ports/run-events.ts";

const T0 = 1_000_000;

async function setup(recorded: readonly NewRunEvent[] = [{ type: "OccurrenceStarted", payload: { occurrenceId: "o2" } }]) {
  const clock = { t: T0, now: () => clock.t };
  const log = new MemoryEventLog("run_deadline", clock);
  for (const e of recorded) {
    await log.append([e]);
    clock.t += 10;
  }
  const ctx: HarnessContext = {
    runId: "run_deadline",
    log,
    journal: new Journal(await log.all()),
    clock,
    deadline: clock.t + 3_600_000,
    sleep: async () => {},
  };
  const fire = new AbortController();
  const timers: number[] = [];
  const timer = (ms: number) => {
    timers.push(ms);
    return fire.signal;
  };
  const events = await log.all();
  return { clock, log, ctx, fire, timers, timer, events };
}

const stepDone = (stepPath: string): NewRunEvent => ({ type: "StepSucceeded", payload: { stepPath, attempt: 1, output: { ok: true } } });

describe("withinOccurrenceDeadline", () => {
  it("fails with occurrence_timeout when the timer fires, even if the body ignores its abort signal", async () => {
    const s = await setup();
    let release: (v: string) => void = () => {};
    let sawAbort = false;
    const outcome = withinOccurrenceDeadline(
      { ctx: s.ctx, events: s.events, occurrenceId: "o2", timeoutMs: 500, timer: s.timer },
      (bounded) => {
        bounded.signal?.addEventListener("abort", () => {
          sawAbort = true; // told, and ignores it: never settles until released
        });
        return new Promise<string>((resolve) => {
          release = resolve;
        });
      },
    );
    // The deadline counts from OccurrenceStarted (T0), read from the log: 500 - the 10 ms since.
    expect(s.timers).toEqual([490]);
    s.clock.t = T0 + 500;
    s.fire.abort();
    await expect(outcome).rejects.toMatchObject({ causeCode: "occurrence_timeout" });
    expect(sawAbort).toBe(true);
    release("too late"); // settling afterwards changes nothing (and raises nothing)
  });

  it("a body that finishes before the timer completes", async () => {
    const s = await setup();
    const out = await withinOccurrenceDeadline(
      { ctx: s.ctx, events: s.events, occurrenceId: "o2", timeoutMs: 500, timer: s.timer },
      async () => "on time",
    );
    expect(out).toBe("on time");
  });

  it("a body whose last event was appended after the deadline fails, though the timer had not fired", async () => {
    const s = await setup();
    const outcome = withinOccurrenceDeadline(
      { ctx: s.ctx, events: s.events, occurrenceId: "o2", timeoutMs: 500, timer: s.timer },
      async (bounded) => {
        s.clock.t = T0 + 600;
        await bounded.log.append([stepDone("o2/c1/work")]);
        return "late";
      },
    );
    await expect(outcome).rejects.toMatchObject({ causeCode: "occurrence_timeout" });
  });

  it("a crash after the body's last step, resumed past the deadline, completes from the log (no call, no append)", async () => {
    // The body's terminal step succeeded at T0+10, well before the deadline (T0+500); the slice died
    // before OccurrenceCompleted. The resume comes an hour later.
    const s = await setup([{ type: "OccurrenceStarted", payload: { occurrenceId: "o2" } }, stepDone("o2/c1/work")]);
    s.clock.t = T0 + 3_600_000;
    const before = (await s.log.all()).length;
    const out = await withinOccurrenceDeadline(
      { ctx: s.ctx, events: s.events, occurrenceId: "o2", timeoutMs: 500, timer: s.timer },
      async (bounded) => {
        expect(bounded.deadline).toBeLessThanOrEqual(s.clock.now()); // no live call may start
        return "replayed";
      },
    );
    expect(out).toBe("replayed");
    expect(s.timers).toEqual([]);
    expect((await s.log.all()).length).toBe(before);
  });

  it("resumed past the deadline, a body that had not finished (it would append or start a call) times out", async () => {
    const s = await setup([{ type: "OccurrenceStarted", payload: { occurrenceId: "o2" } }, stepDone("o2/c1/first")]);
    s.clock.t = T0 + 3_600_000;
    const before = (await s.log.all()).length;
    const outcome = withinOccurrenceDeadline(
      { ctx: s.ctx, events: s.events, occurrenceId: "o2", timeoutMs: 500, timer: s.timer },
      async (bounded) => {
        await bounded.log.append([stepDone("o2/c1/second")]);
        return "never";
      },
    );
    await expect(outcome).rejects.toBeInstanceOf(RunFailure);
    await expect(outcome).rejects.toMatchObject({ causeCode: "occurrence_timeout" });
    expect((await s.log.all()).length).toBe(before);
  });

  it("resumed past the deadline with nothing recorded since its start, it fails at once without running", async () => {
    const s = await setup();
    s.clock.t = T0 + 3_600_000;
    let ran = false;
    const outcome = withinOccurrenceDeadline(
      { ctx: s.ctx, events: s.events, occurrenceId: "o2", timeoutMs: 500, timer: s.timer },
      async () => {
        ran = true;
        return "never";
      },
    );
    await expect(outcome).rejects.toMatchObject({ causeCode: "occurrence_timeout" });
    expect(ran).toBe(false);
  });
});
