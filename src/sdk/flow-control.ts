/**
 * @module Flow control on a workflow definition: `concurrency` and `throttle` (docs/flow-control.md).
 *
 * The shapes a developer writes and their checks; the engine renders the keys and admits runs.
 * Like a schedule, a limit is a trigger concern, not what the plan does: it is not part of the
 * definition snapshot, so changing a limit changes no definition hash (docs/identity.md).
 */
import type { Finding } from "./finding.ts";
import { childPath } from "./json-path.ts";

/**
 * At most `limit` runs of the workflow in flight at once per value of `key`, a template over the
 * input (`"{{ input.customerId }}"`); no key: one limit for the workflow, per tenant. Runs over it
 * are accepted and queued, first in first out within their key.
 */
export type ConcurrencyLimit = { readonly limit: number; readonly key?: string };

/** At most `limit` run starts per `periodMs` per key; the rest queue and start as the window allows. */
export type ThrottleLimit = { readonly limit: number; readonly periodMs: number; readonly key?: string };

/** What `concurrency` takes: one limit or a list of up to two (say, per customer and for the whole workflow). */
export type ConcurrencyInput = ConcurrencyLimit | readonly ConcurrencyLimit[];

/** The most concurrency limits a workflow may declare. */
export const MAX_CONCURRENCY_LIMITS = 2;
/** The largest limit (slots per key, starts per window). */
export const MAX_FLOW_LIMIT = 10_000;
/** A throttle window: 100 ms to one day. */
export const MIN_THROTTLE_PERIOD_MS = 100;
export const MAX_THROTTLE_PERIOD_MS = 86_400_000;
/** A key template's longest text. */
export const MAX_KEY_TEMPLATE_LENGTH = 256;

/** The definition's concurrency limits as a list (none: empty). */
export function concurrencyLimitsOf(input: ConcurrencyInput | undefined): readonly ConcurrencyLimit[] {
  if (input === undefined) return [];
  return Array.isArray(input) ? [...(input as readonly ConcurrencyLimit[])] : [input as ConcurrencyLimit];
}

type Fail = (path: string, code: string, message: string) => void;

/** Every problem of `concurrency` and `throttle`, as findings (`definition.invalid_concurrency`, `definition.invalid_throttle`). */
export function flowControlFindings(concurrency: unknown, throttle: unknown): Finding[] {
  const findings: Finding[] = [];
  const fail: Fail = (path, code, message) => findings.push({ severity: "error", code, path, message });
  if (concurrency !== undefined) {
    const list = Array.isArray(concurrency) ? concurrency : [concurrency];
    if (list.length === 0 || list.length > MAX_CONCURRENCY_LIMITS)
      fail("$.concurrency", "definition.invalid_concurrency", `concurrency is one limit or a list of 1 to ${MAX_CONCURRENCY_LIMITS}`);
    list.forEach((entry, i) => {
      const path = Array.isArray(concurrency) ? childPath("$.concurrency", i) : "$.concurrency";
      checkLimit(entry, path, "definition.invalid_concurrency", fail);
    });
  }
  if (throttle !== undefined) {
    checkLimit(throttle, "$.throttle", "definition.invalid_throttle", fail);
    const periodMs = (throttle as { periodMs?: unknown } | null)?.periodMs;
    if (
      !(
        typeof periodMs === "number" &&
        Number.isInteger(periodMs) &&
        periodMs >= MIN_THROTTLE_PERIOD_MS &&
        periodMs <= MAX_THROTTLE_PERIOD_MS
      )
    )
      fail(
        "$.throttle.periodMs",
        "definition.invalid_throttle",
        `throttle.periodMs is an integer number of ms from ${MIN_THROTTLE_PERIOD_MS} to ${MAX_THROTTLE_PERIOD_MS}`,
      );
  }
  return findings;
}

function checkLimit(entry: unknown, path: string, code: string, fail: Fail): void {
  if (typeof entry !== "object" || entry === null) {
    fail(path, code, "a limit is an object: { limit, key? }");
    return;
  }
  const { limit, key } = entry as { limit?: unknown; key?: unknown };
  if (!(typeof limit === "number" && Number.isInteger(limit) && limit >= 1 && limit <= MAX_FLOW_LIMIT))
    fail(`${path}.limit`, code, `limit is an integer from 1 to ${MAX_FLOW_LIMIT}`);
  if (key !== undefined && !(typeof key === "string" && key.includes("{{") && key.length <= MAX_KEY_TEMPLATE_LENGTH))
    fail(
      `${path}.key`,
      code,
      `key is a template over the input, e.g. "{{ input.customerId }}" (at most ${MAX_KEY_TEMPLATE_LENGTH} characters)`,
    );
}
