import { type HarnessContext, SliceYieldSignal } from "../harness/harness-context.ts";
import type { EventLog } from "../ports/event-log.ts";
import type { RunEvent } from "../ports/run-events.ts";
import { RunFailure } from "./run-failure.ts";

/** Starts the timer that fires at the deadline (`AbortSignal.timeout`; tests inject one they fire). */
export type DeadlineTimer = (ms: number) => AbortSignal;

/**
 * Runs one section occurrence under `onTrigger.occurrenceTimeoutMs`, counted from its
 * `OccurrenceStarted` (read from the log, so the bound holds across slices and crashes). Past the
 * deadline the occurrence fails with `occurrence_timeout`: its calls are aborted through the
 * context's signal and the occurrence fails then even if a call ignores the signal (raced, as a
 * step's timeout is), a slice that would sleep past the deadline (a retry's backoff, an approval's
 * expiry) wakes at it instead, and a body whose last event was appended after it still fails.
 * Whether the body finished on time is read from the log's times: resumed past the deadline (a
 * crash between its last step and `OccurrenceCompleted`), the body is replayed without appending
 * or starting a call, and completes if everything it did was recorded before the deadline.
 * What the section then does is its `onBodyFailure` policy's (run-section.ts). No timeout: `run` as is.
 */
export async function withinOccurrenceDeadline<T>(
  args: { ctx: HarnessContext; events: readonly RunEvent[]; occurrenceId: string; timeoutMs: number | undefined; timer?: DeadlineTimer },
  run: (ctx: HarnessContext) => Promise<T>,
): Promise<T> {
  const { ctx, occurrenceId, timeoutMs } = args;
  if (timeoutMs === undefined) return run(ctx);
  const startedAt = args.events.findLastIndex((e) => e.type === "OccurrenceStarted" && e.payload.occurrenceId === occurrenceId);
  const deadline = (args.events[startedAt]?.at ?? ctx.clock.now()) + timeoutMs;
  const timedOut = () => new RunFailure("occurrence_timeout", `Occurrence ${occurrenceId} passed its ${timeoutMs} ms timeout`);
  const lastSeq = args.events.at(-1)?.seq ?? 0;
  const recordedAt = lastBodyEventAt(args.events.slice(Math.max(startedAt, 0)));
  if (ctx.clock.now() >= deadline) return replayPastDeadline(ctx, run, recordedAt, deadline, timedOut);
  const timer = (args.timer ?? AbortSignal.timeout)(deadline - ctx.clock.now());
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer]) : timer;
  try {
    const output = await raceTimer(run({ ...ctx, signal }), timer, timedOut);
    // Finished past the deadline by the clock: on time only if its last event was appended before it.
    if (ctx.clock.now() >= deadline) {
      const appended = await ctx.log.page({ after: lastSeq, limit: 10_000 });
      if ((lastBodyEventAt(appended) ?? recordedAt ?? deadline) >= deadline) throw timedOut();
    }
    return output;
  } catch (error) {
    if (error instanceof SliceYieldSignal) {
      if (error.wakeAt !== undefined && error.wakeAt > deadline) throw new SliceYieldSignal(deadline);
      throw error;
    }
    // Aborted by this deadline (not by a cancel, a quota or the slice's end): the occurrence timed out.
    if (timer.aborted && !ctx.signal?.aborted && !(error instanceof RunFailure && error.causeCode !== "step_failed")) throw timedOut();
    throw error;
  }
}

/** `running`, or `occurrence_timeout` as soon as the timer fires, whether or not the body heeds its signal. */
function raceTimer<T>(running: Promise<T>, timer: AbortSignal, timedOut: () => RunFailure): Promise<T> {
  // The loser may still settle; its outcome is no one's to handle.
  running.catch(() => {});
  return Promise.race([
    running,
    new Promise<never>((_, reject) => {
      if (timer.aborted) reject(timedOut());
      else timer.addEventListener("abort", () => reject(timedOut()), { once: true });
    }),
  ]);
}

/**
 * Past the deadline before this slice ran the body: replays it with no call allowed to start (the
 * slice's own deadline is past) and no event appended. A body that returns had finished before the
 * crash; it completes if its last recorded event was before the deadline. Anything else timed out.
 */
async function replayPastDeadline<T>(
  ctx: HarnessContext,
  run: (ctx: HarnessContext) => Promise<T>,
  recordedAt: number | undefined,
  deadline: number,
  timedOut: () => RunFailure,
): Promise<T> {
  if (recordedAt === undefined || recordedAt >= deadline) throw timedOut();
  const log: EventLog = {
    runId: ctx.log.runId,
    append: () => Promise.reject(new Error("replayed past the occurrence's deadline: nothing is appended")),
    all: () => ctx.log.all(),
    page: (options) => ctx.log.page(options),
    checkpoint: () => ctx.log.checkpoint(),
  };
  try {
    return await run({ ...ctx, log, deadline: Math.min(ctx.deadline, deadline) });
  } catch {
    // A call it would start, an event it would append, or any failure on the way: not finished in time.
    throw timedOut();
  }
}

/** The time of the latest event the occurrence's body appended (triggers queued meanwhile are not its). */
function lastBodyEventAt(events: readonly RunEvent[]): number | undefined {
  return events.findLast((e) => e.type !== "OccurrenceQueued" && e.type !== "OccurrenceStarted")?.at;
}
