import { LittleError } from "./little-error.ts";

/** One field that differs between what a session was started with and what is live now. */
export type ManifestDifference = { readonly field: string; readonly stored: unknown; readonly current: unknown };

/**
 * A resumed run whose capabilities (definition, tools, prompts, models) no longer hash to what its
 * session was started with. The run fails closed (cause `capability_drift`) instead of replaying
 * a session compiled against something else.
 */
export class CapabilityDriftError extends LittleError {
  readonly code = "capability_drift";
  readonly storedHash: string;
  readonly currentHash: string;
  readonly diff: readonly ManifestDifference[];
  constructor(what: string, storedHash: string, currentHash: string, diff: readonly ManifestDifference[]) {
    super(
      `${what} drifted since the run started (stored ${storedHash}, now ${currentHash}): ${diff.map((d) => d.field).join(", ") || "unknown fields"} changed`,
    );
    this.name = "CapabilityDriftError";
    this.storedHash = storedHash;
    this.currentHash = currentHash;
    this.diff = diff;
  }
}

/** Top-level fields of two manifests that differ (nested values compared by canonical JSON text). */
export function diffManifests(
  stored: Record<string, unknown>,
  current: Record<string, unknown>,
  serialize: (v: unknown) => string,
): ManifestDifference[] {
  const keys = [...new Set([...Object.keys(stored), ...Object.keys(current)])].sort();
  return keys
    .filter((k) => serialize(stored[k] ?? null) !== serialize(current[k] ?? null))
    .map((field) => ({ field, stored: stored[field] ?? null, current: current[field] ?? null }));
}
