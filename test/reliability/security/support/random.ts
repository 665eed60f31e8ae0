import { env } from "cloudflare:workers";

/**
 * Seeds per seeded reliability test: 20 on CI, `npm run torture -- --seeds N` for more. Generated
 * input counts scale with it, so CI tries thousands and a torture run tries many more.
 */
export function tortureSeeds(): number {
  const n = Number(env.LITTLE_TORTURE_SEEDS);
  return Number.isInteger(n) && n > 0 ? n : 20;
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same inputs on every run. */
export class Rng {
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
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  bool(): boolean {
    return this.next() < 0.5;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}

/** Prints a figure the RELIABILITY.md table quotes, in one greppable line. */
export function reportFigure(item: string, figures: Record<string, number | string>): void {
  console.log(`[reliability] ${item}: ${JSON.stringify(figures)}`);
}

/**
 * A per-test timeout for a test whose work grows with the seed count: the project's 30 s, or
 * `perSeedMs` per seed when that is more (a torture run with hundreds of seeds takes minutes).
 */
export function tortureTimeout(perSeedMs: number): number {
  return Math.max(30_000, tortureSeeds() * perSeedMs);
}
