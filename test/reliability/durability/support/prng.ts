/**
 * mulberry32: a small seeded PRNG, so a seed names one exact scenario. Not for cryptography.
 */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
}

/** A stable number in [0, 1) for a seed and a key: decisions that do not depend on call order. */
export function hashUnit(seed: number, key: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return new Prng(h).next();
}

/** How many seeds a seeded test runs: `LITTLE_TORTURE_SEEDS` (20 on CI, `npm run torture -- --seeds N`). */
export function tortureSeeds(env: { LITTLE_TORTURE_SEEDS?: string }): number {
  const n = Number(env.LITTLE_TORTURE_SEEDS ?? "20");
  return Number.isInteger(n) && n > 0 ? n : 20;
}
