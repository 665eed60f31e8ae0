/**
 * One driver of a run at a time in its host: the alarm's slice, or a command that ends a waiting
 * step in the same append as the message that answers it (a signal, a child's end;
 * answer-waiting-step.ts). A slice waits for a command holding the lock (a few appends); a command
 * only answers when the lock is free at once, else the slice in flight, or the next, takes the
 * message as before. Two drivers would each decide the same step from their own read of the log.
 *
 * @example
 * const lock = new DriveLock();
 * await lock.hold(() => driveAlarmSlice(ports)); // the alarm
 * const answered = lock.free ? await lock.hold(() => answer()) : false; // a command
 */
export class DriveLock {
  private tail: Promise<unknown> = Promise.resolve();
  private holders = 0;

  /** Nobody holds the lock or waits for it now. */
  get free(): boolean {
    return this.holders === 0;
  }

  /** Runs `work` once whoever holds the lock now is done, holding it until `work` settles. */
  hold<T>(work: () => Promise<T>): Promise<T> {
    this.holders += 1;
    const done = this.tail.then(work).finally(() => {
      this.holders -= 1;
    });
    this.tail = done.catch(() => undefined);
    return done;
  }
}
