import type { NewRunEvent } from "../ports/run-events.ts";

/** Secrets shorter than this are not searched for: they would match ordinary text everywhere. */
export const MIN_REDACTED_LENGTH = 6;

/**
 * Rewrites events so no secret value appears in them, in any of the forms it commonly takes;
 * `value` does the same to one value (an output about to be stored as a blob).
 */
export type Redactor = ((events: readonly NewRunEvent[]) => NewRunEvent[]) & { readonly value: (value: unknown) => unknown };

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
  const redactEvents = (events: readonly NewRunEvent[]) => events.map((e) => ({ ...e, payload: walk(e.payload) }) as NewRunEvent);
  return Object.assign(redactEvents, { value: walk });
}

function encodings(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const base64 = btoa(binary);
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const urlSafe = (text: string) => text.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return [
    ...new Set([
      value,
      base64,
      base64.replace(/=+$/, ""),
      urlSafe(base64),
      ...base64Cores(binary).flatMap((core) => [core, urlSafe(core)]),
      hex,
      hex.toUpperCase(),
      encodeURIComponent(value),
    ]),
  ];
}

/** Cores shorter than this are not searched for: they would match unrelated base64. */
const MIN_BASE64_CORE = 8;

/**
 * The base64 characters that depend only on the secret when it sits 0, 1 or 2 bytes past a 3-byte
 * boundary inside a longer text (a Basic auth header, a JSON body): whatever surrounds it, those
 * characters are the same, so finding them finds the secret in any base64 of a text holding it.
 */
function base64Cores(binary: string): string[] {
  const cores: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = btoa("\u0000".repeat(shift) + binary);
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + binary.length) * 8) / 6));
    if (core.length >= MIN_BASE64_CORE) cores.push(core);
  }
  return cores;
}
