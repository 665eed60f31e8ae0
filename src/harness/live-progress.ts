import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { LiveModelCall, LiveModelOutput, ModelDeltaChannel } from "../ports/live-output.ts";

/** What the durable wrapper tells the live output of one call; every method is safe to call and never throws. */
export type CallProgress = {
  readonly begin: () => void;
  readonly part: (part: LanguageModelV4StreamPart) => void;
  readonly end: () => void;
};

/**
 * One live call's reporter to the run's {@link LiveModelOutput} (none: a reporter that does
 * nothing). A failure of the output is swallowed: showing progress must never fail the call.
 */
export function callProgress(output: LiveModelOutput | undefined, call: LiveModelCall): CallProgress {
  const guarded = (action: () => void) => {
    if (!output) return;
    try {
      action();
    } catch {
      // Live output is a view; the call and its journal are unaffected.
    }
  };
  return {
    begin: () => guarded(() => output?.begin(call)),
    part: (part) => {
      const channel = CHANNELS[part.type];
      if (channel && "delta" in part) guarded(() => output?.delta(call.callId, channel, part.delta));
    },
    end: () => guarded(() => output?.end(call.callId)),
  };
}

const CHANNELS: Partial<Record<LanguageModelV4StreamPart["type"], ModelDeltaChannel>> = {
  "text-delta": "text",
  "reasoning-delta": "reasoning",
  "tool-input-delta": "tool-input",
};
