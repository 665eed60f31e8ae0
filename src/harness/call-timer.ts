import { ModelTimeoutError } from "../sdk/errors/model-timeout-error.ts";

/**
 * An idle timer for one model call attempt: it aborts the call when the provider sends nothing
 * (no response headers, or no stream part) for `timeoutMs`. Idle rather than total, because a
 * long streamed answer that keeps arriving is healthy; a hung connection is not.
 */
export class CallTimer {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timeoutMs: number;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    this.signal = parent ? AbortSignal.any([parent, this.controller.signal]) : this.controller.signal;
    this.touch();
  }

  /** True when this timer (not a cancel) aborted the call. */
  get fired(): boolean {
    return this.controller.signal.aborted;
  }

  /** Something arrived: start the idle period again. */
  touch(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new ModelTimeoutError(this.timeoutMs)), this.timeoutMs);
  }

  /** The attempt ended (answered or failed): the timer must not fire any more. */
  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Settles with `work`, or rejects when the timer fires first (a provider or stream that ignores the abort). */
  race<T>(work: PromiseLike<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.explain(this.signal.reason));
      // Handlers go on `work` first, always: when the signal has already fired, the work's own
      // later rejection must still be handled (it was an unhandled rejection before).
      Promise.resolve(work).then(
        (value) => {
          this.signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
      if (this.signal.aborted) onAbort();
      else this.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The error to report for what the attempt threw: a timeout when this timer fired. */
  explain(error: unknown): unknown {
    return this.fired ? new ModelTimeoutError(this.timeoutMs) : error;
  }
}
