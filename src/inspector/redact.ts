/**
 * Makes a recorded value safe and short enough to show: values under keys that name secrets are
 * replaced, long strings are cut, deep or wide structures are elided, and blob references are
 * described instead of shown. Secrets never enter the log by design (docs/inspector.md, "Live");
 * this is the page's second line, against a tool that echoes a credential back in its result.
 */

export const REDACTED = "[redacted]";

/** Key names whose values are never shown (`…token` but not `inputTokens`). */
const SECRET_KEY = /(secret|password|passwd|api[-_]?key|authorization|cookie|credential|private[-_]?key|token$)/i;

export type RedactOptions = { readonly maxString?: number; readonly maxDepth?: number; readonly maxItems?: number };

/**
 * A copy of `value` fit for display.
 *
 * @example
 * redactForDisplay({ apiKey: "sk-1", text: "hi" }) // { apiKey: "[redacted]", text: "hi" }
 */
export function redactForDisplay(value: unknown, options: RedactOptions = {}): unknown {
  const maxString = options.maxString ?? 4_000;
  const maxDepth = options.maxDepth ?? 12;
  const maxItems = options.maxItems ?? 200;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return v.length > maxString ? `${v.slice(0, maxString)}… (${v.length - maxString} more characters)` : v;
    if (v === null || typeof v !== "object") return v;
    if (depth >= maxDepth) return "…";
    if (Array.isArray(v)) {
      const shown = v.slice(0, maxItems).map((item) => walk(item, depth + 1));
      return v.length > maxItems ? [...shown, `… (${v.length - maxItems} more items)`] : shown;
    }
    const record = v as Record<string, unknown>;
    if (typeof record.$blob === "string" && Object.keys(record).length <= 2)
      return `[stored blob ${record.$blob}${typeof record.bytes === "number" ? `, ${record.bytes} bytes` : ""}]`;
    const out: Record<string, unknown> = {};
    const keys = Object.keys(record);
    for (const key of keys.slice(0, maxItems)) out[key] = SECRET_KEY.test(key) ? REDACTED : walk(record[key], depth + 1);
    if (keys.length > maxItems) out["…"] = `${keys.length - maxItems} more keys`;
    return out;
  };
  return walk(value, 0);
}
