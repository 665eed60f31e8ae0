import type { JsonValue } from "../../../../src/json/canonical-json.ts";
import type { Rng } from "./random.ts";

// Keys chosen to stress RFC 8785's ordering (UTF-16 code units: astral characters sort before
// U+FB33), JSONPath quoting, integer-like keys (which JS enumerates first) and `__proto__`.
const KEYS = [
  "a",
  "b",
  "B",
  "aa",
  "",
  " ",
  "1",
  "10",
  "2",
  "-1",
  "01",
  "__proto__",
  "constructor",
  "toString",
  "\r",
  "\u0080",
  "\u00f6",
  "\u20ac",
  "\ud83d\ude00",
  "\ufb33",
  "\uffff",
  "key with spaces",
  'quote"d',
  "back\\slash",
  "tab\there",
  "ключ",
  "日本",
];

const STRINGS = ["", "plain", '€$\u000f\nA\'B"\\\\"/', "\u0000\u001f\u007f", "\ud83d\ude00 emoji", "\u2028\u2029", "<script>", "ä\u0308"];

const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 1e-6, 5e-324, 1.7976931348623157e308, 2 ** 53, -(2 ** 53), 333333333.3333333, 4.5, 1e23];

/** Sets an own, enumerable property, also for `__proto__` (which `obj[k] = v` would turn into a prototype change). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A random JSON document, at most `depth` containers deep. */
export function randomJson(rng: Rng, depth: number): JsonValue {
  const roll = rng.int(depth <= 0 ? 4 : 7);
  switch (roll) {
    case 0:
      return rng.pick([null, true, false]);
    case 1:
      return rng.bool() ? rng.pick(NUMBERS) : (rng.next() - 0.5) * 10 ** (rng.int(40) - 20);
    case 2:
      return rng.bool() ? rng.pick(STRINGS) : String.fromCodePoint(...Array.from({ length: rng.int(6) }, () => randomCodePoint(rng)));
    case 3:
      return rng.int(1_000_000) - 500_000;
    case 4:
    case 5: {
      const object: Record<string, JsonValue> = {};
      const n = rng.int(6);
      for (let i = 0; i < n; i++) setOwn(object, rng.bool() ? rng.pick(KEYS) : `k${rng.int(50)}`, randomJson(rng, depth - 1));
      return object;
    }
    default:
      return Array.from({ length: rng.int(5) }, () => randomJson(rng, depth - 1));
  }
}

function randomCodePoint(rng: Rng): number {
  // Any scalar value except surrogates: from ASCII controls to astral planes.
  const ranges: [number, number][] = [
    [0, 0x7f],
    [0x80, 0x7ff],
    [0x800, 0xd7ff],
    [0xe000, 0xffff],
    [0x10000, 0x10ffff],
  ];
  const [lo, hi] = rng.pick(ranges);
  return lo + rng.int(hi - lo + 1);
}

/** A deep copy whose objects were built with their keys inserted in a random order. */
export function permuteKeys(value: JsonValue, rng: Rng): JsonValue {
  if (Array.isArray(value)) return value.map((v) => permuteKeys(v, rng));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, JsonValue> = {};
  for (const key of rng.shuffle(Object.keys(value))) setOwn(copy, key, permuteKeys(value[key] as JsonValue, rng));
  return copy;
}

/**
 * An independent reference canonicalizer straight from RFC 8785 §3.2: keys sorted by UTF-16 code
 * units (what `Array.prototype.sort` compares), strings and numbers serialized as ECMAScript's
 * `JSON.stringify` does. Only for well-formed documents.
 */
export function referenceCanonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonical).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceCanonical(value[k] as JsonValue)}`).join(",")}}`;
}

/** The container paths of a document (as key lists), where an injected value can go. */
export function containerPaths(value: JsonValue, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  const here = [at];
  const entries: [string | number, JsonValue][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.keys(value).map((k) => [k, value[k] as JsonValue]);
  return here.concat(...entries.map(([k, v]) => containerPaths(v, [...at, k])));
}

/** The value at a key path. */
export function valueAt(root: JsonValue, path: readonly (string | number)[]): JsonValue {
  let value: JsonValue = root;
  for (const key of path) value = (value as Record<string | number, JsonValue>)[key] as JsonValue;
  return value;
}
