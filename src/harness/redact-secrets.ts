import type { NewRunEvent } from "../ports/run-events.ts";

/** Secrets shorter than this are not searched for: they would match ordinary text everywhere. */
export const MIN_REDACTED_LENGTH = 6;

/** Rewrites events so no secret value appears in them, in any of the forms it commonly takes. */
export type Redactor = (events: readonly NewRunEvent[]) => NewRunEvent[];

/**
 * A redactor for these secret values: every string in a payload (keys included) has each
 * value's plain, base64, base64url, hex (both cases) and URL-encoded forms replaced by
 * `[redacted:<NAME>]` before the event is appended. Applied to the whole payload, so a secret a
 * tool echoes, a model repeats or an error message quotes never reaches the log, the API or the CLI.
 *
 * @example
 * const redact = secretRedactor({ CRM_KEY: "sk-live-123456" });
 * redact([{ type: "RunFailed", payload: { causeCode: "step_failed", message: "bad key sk-live-123456" } }]);
 */
export function secretRedactor(secrets: Readonly<Record<string, string>>): Redactor | undefined {
  const forms: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(secrets)) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    for (const form of encodings(value)) forms.push([form, `[redacted:${name}]`]);
  }
  if (forms.length === 0) return undefined;
  // Longest first, so a form that contains another is replaced whole.
  forms.sort((a, b) => b[0].length - a[0].length);
  const scrub = (text: string): string => {
    let out = text;
    for (const [form, mark] of forms) if (out.includes(form)) out = out.split(form).join(mark);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return scrub(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), walk(v)]));
    return value;
  };
  return (events) => events.map((e) => ({ ...e, payload: walk(e.payload) }) as NewRunEvent);
}

function encodings(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const base64 = btoa(binary);
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return [
    ...new Set([
      value,
      base64,
      base64.replace(/=+$/, ""),
      base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""),
      hex,
      hex.toUpperCase(),
      encodeURIComponent(value),
    ]),
  ];
}
