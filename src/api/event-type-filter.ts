import { RUN_EVENT_TYPES } from "../ports/run-event-types.ts";
import type { RunEventType } from "../ports/run-events.ts";
import { ApiError } from "./api-error.ts";

/** At most this many unknown entries are named in the error's findings. */
const MAX_NAMED = 10;

/**
 * Reads the `?type=` filter of the events routes: comma-separated event types, each exact or a
 * prefix ending in `*` (`harness.*`). Every entry must name a type of the event union (a prefix,
 * at least one), else 400 `event_type_unknown`. The answer is the matching types, deduplicated
 * and expanded from the prefixes: never more than the union has, whatever the client sent.
 * `undefined` when there is no filter.
 */
export function parseEventTypeFilter(param: string | undefined): RunEventType[] | undefined {
  const entries = (param ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  if (entries.length === 0) return undefined;
  const matched = new Set<RunEventType>();
  const unknown = new Set<string>();
  for (const entry of entries) {
    const prefix = entry.endsWith("*") ? entry.slice(0, -1) : null;
    const hits = RUN_EVENT_TYPES.filter((t) => (prefix === null ? t === entry : t.startsWith(prefix)));
    if (hits.length === 0) unknown.add(entry);
    for (const t of hits) matched.add(t);
  }
  if (unknown.size > 0) {
    const named = [...unknown].slice(0, MAX_NAMED);
    throw new ApiError(
      "event_type_unknown",
      `Unknown event type${unknown.size > 1 ? "s" : ""} in ?type=: ${named.map((t) => JSON.stringify(t)).join(", ")}${unknown.size > MAX_NAMED ? ` and ${unknown.size - MAX_NAMED} more` : ""}`,
      {
        findings: named.map((t) => ({
          severity: "error",
          code: "request.event_type_unknown",
          path: "$.type",
          message: `not an event type: ${t}`,
        })),
      },
    );
  }
  // In the union's order, so equal filters are equal queries.
  return RUN_EVENT_TYPES.filter((t) => matched.has(t));
}
