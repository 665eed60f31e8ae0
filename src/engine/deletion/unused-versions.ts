/**
 * @module The versions a deleted run leaves (docs/runs.md, "Versions of deleted runs"): deleted
 * once nothing references them, and only after a grace period since a run last registered them.
 */
import { WRITTEN_ONCE_TTL_MS } from "../written-once.ts";

/**
 * How long after a run last registered a version it may be deleted. Longer than an isolate
 * remembers a registration (WRITTEN_ONCE_TTL_MS: a remembered one is not written again, so its
 * `last_used_at` is not refreshed) plus the time between a registration and the run's index row
 * naming the version (the same slice): a version a run is registering now is never deleted.
 */
export const VERSION_GRACE_MS = 6 * WRITTEN_ONCE_TTL_MS;

/** The version ids a run's view and index row name, deduplicated. */
export function versionsNamed(...named: readonly (string | null | undefined)[]): string[] {
  return [...new Set(named.filter((id): id is string => typeof id === "string" && id !== ""))];
}
