import type { JsonValue } from "../json/canonical-json.ts";

/**
 * Encodes values that JSON cannot hold faithfully (model results carry a `Date` timestamp and
 * `Uint8Array` file data) into tagged JSON, and drops `undefined` properties, so a recorded model
 * or tool result can be canonicalized, stored and decoded back to an equal value on replay.
 *
 * Tags: `{ "$date": iso }`, `{ "$bytes": base64 }`, `{ "$url": href }`,
 * `{ "$error": { name, message } }`. A plain object that itself has a single `$`-key is escaped as
 * `{ "$object": {...} }` so it is never mistaken for a tag.
 *
 * @example
 * decodeTagged(encodeTagged({ at: new Date(0) })) // { at: Date(0) }
 */
export function encodeTagged(value: unknown): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object") return null;
  if (value instanceof Date) return { $date: value.toISOString() };
  if (value instanceof Uint8Array) return { $bytes: toBase64(value) };
  if (value instanceof ArrayBuffer) return { $bytes: toBase64(new Uint8Array(value)) };
  if (value instanceof URL) return { $url: value.href };
  if (value instanceof Error) return { $error: { name: value.name, message: value.message } };
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : encodeTagged(v)));
  const out: Record<string, JsonValue> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    out[key] = encodeTagged(v);
  }
  const keys = Object.keys(out);
  return keys.length === 1 && (keys[0] as string).startsWith("$") ? { $object: out } : out;
}

/** The inverse of {@link encodeTagged}. */
export function decodeTagged(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decodeTagged);
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [key, inner] = entries[0] as [string, unknown];
    switch (key) {
      case "$date":
        return new Date(inner as string);
      case "$bytes":
        return fromBase64(inner as string);
      case "$url":
        return new URL(inner as string);
      case "$error": {
        const e = inner as { name: string; message: string };
        const error = new Error(e.message);
        error.name = e.name;
        return error;
      }
      case "$object":
        return Object.fromEntries(Object.entries(inner as object).map(([k, v]) => [k, decodeTagged(v)]));
      default:
        break;
    }
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, decodeTagged(v)]));
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
