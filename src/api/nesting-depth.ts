import { MAX_CANONICAL_DEPTH } from "../json/canonical-json.ts";
import { CanonicalJsonError } from "../sdk/errors/canonical-json-error.ts";

/**
 * How deep a request body's JSON may nest before it is refused unread. Every value a route
 * accepts (an input, an LWIR, a webhook payload) sits one level below the body and must be
 * canonical JSON (at most {@link MAX_CANONICAL_DEPTH} levels), so nothing acceptable is refused;
 * the margin leaves the bodies in between to the checks that name the deep path (the LWIR
 * validator's `document.too_deep`, canonical JSON's path). Deeper bodies never reach JSON.parse's
 * consumers: recursive validators and the structured clone of an RPC to the run object overflow
 * the stack somewhere between 1,000 and 10,000 levels, which answered 503 `run_start_unconfirmed`.
 */
export const MAX_BODY_NESTING = 2 * MAX_CANONICAL_DEPTH;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text opens more than `max` objects or arrays inside one another (strings skipped; no parse). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // No text shorter than its depth can be that deep.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** 400 `canonical_json_rejected` (reason `too_deep`, at `$`) for a body nested past {@link MAX_BODY_NESTING}. */
export function assertBodyNesting(text: string): void {
  if (nestsDeeperThan(text, MAX_BODY_NESTING)) throw new CanonicalJsonError("too_deep", "$");
}
