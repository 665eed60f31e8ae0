import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import type { NewRunEvent } from "../ports/run-events.ts";

/**
 * A finished step's `StepSucceeded`, held back by the executor so it goes out first in the
 * executor's next append (the next step's `StepScheduled` + `StepStarted`): a sequential chain
 * then costs one synced write per step instead of two, in the same event order.
 *
 * Held events are not in the log at all until that append, so the durability rule (append, sync,
 * then the side effect) holds as before: the next side effect comes after the append that carries
 * them. A crash while they are held loses the step's result, and the step runs again on resume
 * (at-least-once, as a crash between a call returning and its append always did). So events are
 * held only when nothing else is in flight (`mayHold`): no other step can append or run a call
 * while they wait, and the executor appends them on their own (`flush`) before it waits on
 * anything else or ends.
 */
export class HeldEvents {
  private events: NewRunEvent[] = [];
  private readonly mayHold: () => boolean;

  /** `mayHold` says whether the step finishing now is the only one in flight. */
  constructor(mayHold: () => boolean) {
    this.mayHold = mayHold;
  }

  /** Appends `events` now, or holds them for the executor's next append when nothing else is in flight. */
  async appendOrHold(ctx: HarnessContext, events: readonly NewRunEvent[]): Promise<void> {
    if (this.mayHold()) this.events.push(...events);
    else await appendEvents(ctx, [...this.take(), ...events]);
  }

  /** The held events, to put first in the append being made now; none are held afterwards. */
  take(): NewRunEvent[] {
    const held = this.events;
    this.events = [];
    return held;
  }

  get size(): number {
    return this.events.length;
  }

  /** Appends the held events on their own (synced), if any. */
  async flush(ctx: HarnessContext): Promise<void> {
    const held = this.take();
    if (held.length > 0) await appendEvents(ctx, held);
  }
}

/** Appends `events` now, or through `held` (which may hold them) when the executor gave one. */
export async function appendOrHold(ctx: HarnessContext, held: HeldEvents | undefined, events: readonly NewRunEvent[]): Promise<void> {
  if (held) await held.appendOrHold(ctx, events);
  else await appendEvents(ctx, events);
}
