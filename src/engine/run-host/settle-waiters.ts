/**
 * The callers waiting for a run to settle (ended, or a section waiting for its next trigger):
 * `waitForEnd` and a start with `wait`. In memory only: a waiter whose host is evicted times out
 * on its caller's side, and the run goes on.
 */
export class SettleWaiters {
  private readonly waiting = new Set<() => void>();

  /** Resolves when {@link notify} is called, or after `timeoutMs`, whichever is first. */
  wait(timeoutMs: number): Promise<void> {
    const waiting = this.waiting;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });
  }

  /** The run settled (a slice, a cancel, an end): every waiter looks again. */
  notify(): void {
    for (const waiter of [...this.waiting]) waiter();
  }
}
