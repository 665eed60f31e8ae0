import { redactForDisplay } from "../redact.ts";

/** "350 ms", "2.41 s", "3 min 5 s". */
export function fmtDuration(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A timestamp in UTC, to the second: the same on every machine. */
export function fmtTime(at) {
  if (typeof at !== "number") return "—";
  return `${new Date(at).toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

/** Pretty JSON of a recorded value, redacted and cut for display. */
export function fmtJson(value) {
  if (value === undefined) return "—";
  return JSON.stringify(redactForDisplay(value), null, 2);
}

export function fmtTokens(usage) {
  if (!usage) return "—";
  return `${usage.totalTokens} (${usage.inputTokens} in / ${usage.outputTokens} out)`;
}

export function fmtCost(usage) {
  if (!usage) return "—";
  return usage.costUsd === null ? "unpriced" : `$${usage.costUsd.toFixed(4)}`;
}
