/** Summaries of repeated measurements: benchmarks report medians with min and max. */

export type Summary = { median: number; min: number; max: number; n: number };

/** Median, min and max of `values` (the median of an even count is the mean of the middle two). */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted.at(-1) as number, n: sorted.length };
}

/** The `p`-th percentile (0–100) by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** `12.3 (10.1–15.0)`: a summary as one table cell, with `digits` decimals. */
export function cell(s: Summary, digits = 1, unit = ""): string {
  if (s.n === 0) return "n/a";
  const f = (x: number) => `${x.toFixed(digits)}${unit}`;
  return s.n === 1 ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}

/** A ratio as `0.42×`. */
export function times(ratio: number, digits = 2): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(digits)}×` : "n/a";
}
