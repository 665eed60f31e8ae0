/**
 * Where side effects land in reliability tests: every delivery is counted by its idempotency key,
 * and a key is applied once however often it is delivered (what a well-behaved idempotent API
 * does). Tests read `deliveries` to prove which requests were repeated and with which key.
 */
export class CountingSink {
  readonly deliveries = new Map<string, number>();
  readonly applied = new Set<string>();

  /** Records a delivery; returns true when this key is applied now (its first delivery). */
  deliver(key: string): boolean {
    this.deliveries.set(key, (this.deliveries.get(key) ?? 0) + 1);
    if (this.applied.has(key)) return false;
    this.applied.add(key);
    return true;
  }

  /** Keys delivered more than once, with their counts. */
  repeated(): Map<string, number> {
    return new Map([...this.deliveries].filter(([, n]) => n > 1));
  }

  total(): number {
    let n = 0;
    for (const count of this.deliveries.values()) n += count;
    return n;
  }

  clear(): void {
    this.deliveries.clear();
    this.applied.clear();
  }
}
