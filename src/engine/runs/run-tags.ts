import { RunTagsInvalidError } from "../../sdk/errors/run-tags-invalid-error.ts";
import type { Finding } from "../../sdk/finding.ts";

/** The most tags one run may carry. */
export const MAX_RUN_TAGS = 16;
/** The longest tag key, and the longest tag value, in characters. */
export const MAX_TAG_LENGTH = 64;
/** A tag key: a letter or digit, then letters, digits, `_`, `.` or `-` (no `:`, which `?tag=key:value` splits on). */
export const TAG_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A run's tags: `key` → `value`. */
export type RunTags = Readonly<Record<string, string>>;

/**
 * The start's tags, checked: at most {@link MAX_RUN_TAGS}, keys matching {@link TAG_KEY_PATTERN},
 * string values of at most {@link MAX_TAG_LENGTH} characters. Throws {@link RunTagsInvalidError}
 * (422 `run_tags_invalid`) naming every broken rule. Absent or empty tags are none (undefined),
 * so a start without tags and one with `{}` are the same start.
 */
export function checkRunTags(tags: unknown): RunTags | undefined {
  if (tags === undefined || tags === null) return undefined;
  if (typeof tags !== "object" || Array.isArray(tags))
    throw new RunTagsInvalidError([finding("$.tags", "tags must be an object of strings")]);
  const entries = Object.entries(tags as Record<string, unknown>);
  const findings: Finding[] = [];
  if (entries.length > MAX_RUN_TAGS) findings.push(finding("$.tags", `at most ${MAX_RUN_TAGS} tags, not ${entries.length}`));
  for (const [key, value] of entries) {
    if (!TAG_KEY_PATTERN.test(key))
      findings.push(finding(`$.tags.${key}`, `key "${key}" must be 1–64 of A-Z a-z 0-9 _ . -, starting with a letter or digit`));
    if (typeof value !== "string") findings.push(finding(`$.tags.${key}`, `the value of "${key}" must be a string`));
    else if (value.length > MAX_TAG_LENGTH)
      findings.push(finding(`$.tags.${key}`, `the value of "${key}" is over ${MAX_TAG_LENGTH} characters`));
  }
  if (findings.length > 0) throw new RunTagsInvalidError(findings);
  return entries.length > 0 ? (Object.fromEntries(entries) as RunTags) : undefined;
}

/**
 * A `?tag=key:value` filter, split at its first `:`; null when it is no `key:value` with a valid key
 * (the value may itself hold `:`).
 */
export function parseTagFilter(filter: string): { key: string; value: string } | null {
  const at = filter.indexOf(":");
  if (at <= 0) return null;
  const key = filter.slice(0, at);
  const value = filter.slice(at + 1);
  return TAG_KEY_PATTERN.test(key) && value.length <= MAX_TAG_LENGTH ? { key, value } : null;
}

function finding(path: string, message: string): Finding {
  return { severity: "error", code: "run_tags_invalid", path, message };
}
