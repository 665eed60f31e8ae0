/**
 * What this host last heard from its run's limiters, gate by gate: when it asked and when the
 * limiter admitted the run (memory only; a new instance of the host asks again). A slot whose lease
 * has more than half its time left was renewed so lately that asking again would only queue the
 * slice behind every other run of the tenant at a limiter object shared by all of them (the tenant's
 * concurrent-runs quota): a thousand runs waking from a sleep would wait on one object in turn.
 * Within its lease a slot is the run's (the limiter only takes it back from a lease that ran out,
 * and then asks the run first, which answers `active` while it is driven).
 *
 * @example
 * const held = new HeldSlots();
 * if (!held.fresh(gateId, now, leaseMs)) held.admitted(gateId, now, (await flow.acquire(...)).at);
 */
export class HeldSlots {
  private readonly slots = new Map<string, { readonly askedAt: number; readonly admittedAt: number }>();

  /** The admission of a slot asked for at most half a lease ago, or undefined (ask the limiter). */
  fresh(gateId: string, now: number, leaseMs: number): { readonly admittedAt: number } | undefined {
    const slot = this.slots.get(gateId);
    return slot && now >= slot.askedAt && now - slot.askedAt < leaseMs / 2 ? slot : undefined;
  }

  /** The limiter admitted the run at `admittedAt`, asked at `askedAt` (by the host's clock, before the call). */
  admitted(gateId: string, askedAt: number, admittedAt: number): void {
    this.slots.set(gateId, { askedAt, admittedAt });
  }

  /** The run queued or gave its slots back: ask next time. */
  forget(): void {
    this.slots.clear();
  }
}
