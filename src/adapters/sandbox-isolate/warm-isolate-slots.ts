/** One warm isolate held by one call: give it back when the call is done, or retire it. */
export type IsolateLease = {
  /** The Worker Loader id to load: the base id and the slot number. */
  readonly id: string;
  /** The call finished: the next call of the same base id may reuse this isolate, warm. */
  release(): void;
  /**
   * The host stopped waiting while the isolate may still be running the call (wall time): never
   * hand this isolate to another call, whose module-global loop guard and console the stuck call
   * would share.
   */
  retire(): void;
};

/**
 * Warm isolates by base id, one call at a time per isolate. A code.run isolate keeps module-global
 * state (the loop guard's countdown and deadline, the captured console, and whatever the user's
 * modules keep), so two calls must never be inside one isolate at once: a concurrent call takes
 * the next free slot (`<base>-1`, `<base>-2`, …), a sequential one reuses slot 0 warm. The base id
 * already names the scope (tenant and run), so slots never cross scopes.
 */
export class WarmIsolateSlots {
  private readonly held = new Map<string, { busy: Set<number>; retired: Set<number> }>();

  acquire(base: string): IsolateLease {
    let entry = this.held.get(base);
    if (!entry) {
      entry = { busy: new Set(), retired: new Set() };
      this.held.set(base, entry);
    }
    let slot = 0;
    while (entry.busy.has(slot) || entry.retired.has(slot)) slot++;
    entry.busy.add(slot);
    const held = entry;
    let done = false;
    const finish = (retire: boolean) => {
      if (done) return;
      done = true;
      held.busy.delete(slot);
      if (retire) held.retired.add(slot);
      // Forget a base with nothing in flight and nothing retired: its slot 0 is warm in the loader.
      if (held.busy.size === 0 && held.retired.size === 0) this.held.delete(base);
    };
    return { id: `${base}-${slot}`, release: () => finish(false), retire: () => finish(true) };
  }

  /** Bases with a call in flight or a retired slot (for tests: nothing leaks after calls end). */
  get size(): number {
    return this.held.size;
  }
}
