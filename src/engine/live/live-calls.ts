/**
 * @module The run object's memory of its model calls in flight (docs/observability.md, "Live
 * model output"): each call's text so far, per channel, and the readers that follow it. Nothing
 * here is stored: a crash or an eviction forgets it, and the call, re-issued on resume, streams
 * again from the start.
 */
import type { LiveModelCall, LiveModelOutput, ModelDelta, ModelDeltaChannel } from "../../ports/live-output.ts";
import { partialObjectOf } from "./partial-object.ts";

/** A reader of the deltas; called synchronously, it must not throw or wait. */
export type DeltaListener = (delta: ModelDelta) => void;

type LiveCall = { readonly call: LiveModelCall; readonly channels: Map<ModelDeltaChannel, string> };

/**
 * The live calls of one run and their listeners: the harness writes (as {@link LiveModelOutput}),
 * the run's SSE streams read. A listener that joins late gets {@link snapshot} first.
 */
export class LiveCalls implements LiveModelOutput {
  private readonly calls = new Map<string, LiveCall>();
  private readonly listeners = new Set<DeltaListener>();

  begin(call: LiveModelCall): void {
    this.calls.set(call.callId, { call, channels: new Map() });
  }

  delta(callId: string, channel: ModelDeltaChannel, text: string): void {
    const live = this.calls.get(callId);
    if (!live || text.length === 0) return;
    const before = live.channels.get(channel) ?? "";
    const whole = before + text;
    live.channels.set(channel, whole);
    if (this.listeners.size === 0) return;
    const delta = deltaOf(live.call, channel, before.length, text, whole);
    for (const listener of [...this.listeners]) {
      try {
        listener(delta);
      } catch {
        // A reader's failure is the reader's: the call goes on.
        this.listeners.delete(listener);
      }
    }
  }

  end(callId: string): void {
    this.calls.delete(callId);
  }

  /** No call is live any more (the slice that made them ended). */
  clear(): void {
    this.calls.clear();
  }

  /** Each live call's text so far, one delta per channel at offset 0, in the order the calls began. */
  snapshot(): ModelDelta[] {
    return [...this.calls.values()].flatMap(({ call, channels }) =>
      [...channels].map(([channel, whole]) => deltaOf(call, channel, 0, whole, whole)),
    );
  }

  /** Follows every delta from now on; returns the unsubscribe. */
  listen(listener: DeltaListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function deltaOf(call: LiveModelCall, channel: ModelDeltaChannel, offset: number, text: string, whole: string): ModelDelta {
  const { structured, ...ref } = call;
  const partial = structured && channel === "text" ? partialObjectOf(whole) : undefined;
  return { ...ref, channel, offset, text, ...(partial !== undefined ? { partial } : {}) };
}
