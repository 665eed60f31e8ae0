import { type HarnessContext, SliceYieldSignal } from "../harness/harness-context.ts";
import type { RunEvent } from "../ports/run-events.ts";
import { RunFailure } from "./run-failure.ts";

/**
 * Runs one section occurrence under `onTrigger.occurrenceTimeoutMs`, counted from its
 * `OccurrenceStarted` (read from the log, so the bound holds across slices and crashes). Past the
 * deadline the occurrence fails with `occurrence_timeout`: its calls are aborted through the
 * context's signal, a slice that would sleep past the deadline (a retry's backoff, an approval's
 * expiry) wakes at it instead, and a body that returns only after it still fails. What the
 * section then does is its `onBodyFailure` policy's (run-section.ts). No timeout: `run` as is.
 */
export async function withinOccurrenceDeadline<T>(
  args: { ctx: HarnessContext; events: readonly RunEvent[]; occurrenceId: string; timeoutMs: number | undefined },
  run: (ctx: HarnessContext) => Promise<T>,
): Promise<T> {
  const { ctx, occurrenceId, timeoutMs } = args;
  if (timeoutMs === undefined) return run(ctx);
  const started = args.events.findLast((e) => e.type === "OccurrenceStarted" && e.payload.occurrenceId === occurrenceId);
  const deadline = (started?.at ?? ctx.clock.now()) + timeoutMs;
  const timedOut = () => new RunFailure("occurrence_timeout", `Occurrence ${occurrenceId} passed its ${timeoutMs} ms timeout`);
  const remaining = deadline - ctx.clock.now();
  if (remaining <= 0) throw timedOut();
  const timer = AbortSignal.timeout(remaining);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer]) : timer;
  try {
    const output = await run({ ...ctx, signal });
    if (ctx.clock.now() >= deadline) throw timedOut();
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
