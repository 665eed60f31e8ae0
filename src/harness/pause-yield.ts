import { type HarnessContext, SliceYieldSignal } from "./harness-context.ts";

/**
 * Thrown where something new would start (a step, a model or tool call, a section's occurrence)
 * after the run was paused (`RunPaused`). A slice yield that waits for a message (the resume):
 * the host sets no alarm, so a paused run costs nothing. Calls already in flight are not aborted:
 * they finish and are recorded, and a step that throws this lets its siblings finish theirs.
 */
export class PauseYield extends SliceYieldSignal {
  constructor() {
    super(undefined, { untilMessage: true });
    this.name = "PauseYield";
  }
}

/** Throws {@link PauseYield} when the run was paused since its slice began (the host's pause signal). */
export function assertNotPaused(ctx: Pick<HarnessContext, "pause">): void {
  if (ctx.pause?.aborted) throw new PauseYield();
}
