import { describe, expect, it } from "vitest";
import { canonicalJson, type JsonValue, MAX_CANONICAL_DEPTH } from "../../../src/json/canonical-json.ts";
import { digestJson, digestText } from "../../../src/json/digest.ts";
import { CanonicalJsonError, type CanonicalJsonRejection } from "../../../src/sdk/errors/canonical-json-error.ts";
import { pathOf } from "../../../src/sdk/json-path.ts";
import { containerPaths, permuteKeys, randomJson, referenceCanonical, setOwn, valueAt } from "./support/json-documents.ts";
import { Rng, reportFigure, tortureSeeds, tortureTimeout } from "./support/random.ts";

// Item 6 of the reliability suite: RFC 8785 vectors, random documents with permuted keys, and the
// rejection list injected anywhere in random documents.

/** RFC 8785 §3.2.2 / §3.2.4: the sample input (as a JSON text, parsed by JSON.parse) and its canonical bytes. */
const RFC_SAMPLE_INPUT = `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
  "literals": [null, true, false]
}`;
const RFC_SAMPLE_HEX =
  "7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72 75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a 5b 33 " +
  "33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31 65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37 5d 2c 22 73 " +
  "74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30 30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d";

/** RFC 8785 §3.2.3: the sorting example. */
const RFC_SORT_INPUT = `{
  "\\u20ac": "Euro Sign",
  "\\r": "Carriage Return",
  "\\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\\ud83d\\ude00": "Emoji: Grinning Face",
  "\\u0080": "Control",
  "\\u00f6": "Latin Small Letter O With Diaeresis"
}`;
const RFC_SORT_VALUES = [
  "Carriage Return",
  "One",
  "Control",
  "Latin Small Letter O With Diaeresis",
  "Euro Sign",
  "Emoji: Grinning Face",
  "Hebrew Letter Dalet With Dagesh",
];

/** RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text (null: must be rejected). */
const RFC_NUMBERS: [string, string | null][] = [
  ["0000000000000000", "0"],
  ["8000000000000000", "0"],
  ["0000000000000001", "5e-324"],
  ["8000000000000001", "-5e-324"],
  ["7fefffffffffffff", "1.7976931348623157e+308"],
  ["ffefffffffffffff", "-1.7976931348623157e+308"],
  ["4340000000000000", "9007199254740992"],
  ["c340000000000000", "-9007199254740992"],
  ["4430000000000000", "295147905179352830000"],
  ["7fffffffffffffff", null],
  ["7ff0000000000000", null],
  ["44b52d02c7e14af5", "9.999999999999997e+22"],
  ["44b52d02c7e14af6", "1e+23"],
  ["44b52d02c7e14af7", "1.0000000000000001e+23"],
  ["444b1ae4d6e2ef4e", "999999999999999700000"],
  ["444b1ae4d6e2ef4f", "999999999999999900000"],
  ["444b1ae4d6e2ef50", "1e+21"],
  ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
  ["3eb0c6f7a0b5ed8d", "0.000001"],
  ["41b3de4355555553", "333333333.3333332"],
  ["41b3de4355555554", "333333333.33333325"],
  ["41b3de4355555555", "333333333.3333333"],
  ["41b3de4355555556", "333333333.3333334"],
  ["41b3de4355555557", "333333333.33333343"],
  ["becbf647612f3696", "-0.0000033333333333333333"],
  ["43143ff3c1cb0959", "1424953923781206.2"],
];

function float64(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

const hexOf = (text: string) => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join(" ");

describe("RFC 8785 vectors", () => {
  it("the sample of §3.2.2 canonicalizes to the bytes of §3.2.4", () => {
    expect(hexOf(canonicalJson(JSON.parse(RFC_SAMPLE_INPUT)))).toBe(RFC_SAMPLE_HEX);
  });

  it("the sorting example of §3.2.3 orders keys by UTF-16 code units", () => {
    const text = canonicalJson(JSON.parse(RFC_SORT_INPUT));
    expect(Object.values(JSON.parse(text))).not.toEqual(RFC_SORT_VALUES); // JS enumerates "1" first…
    expect([...text.matchAll(/:"([^"]+)"/g)].map((m) => m[1])).toEqual(RFC_SORT_VALUES); // …the bytes do not.
  });

  it.each(RFC_NUMBERS)("the number %s serializes as %s (Appendix B)", (hex, expected) => {
    const value = float64(hex);
    if (expected === null) {
      expect(() => canonicalJson([value])).toThrow(CanonicalJsonError);
      return;
    }
    expect(canonicalJson(value)).toBe(expected);
    expect(canonicalJson({ n: [value] })).toBe(`{"n":[${expected}]}`);
  });
});

describe("random documents", () => {
  it(
    "permuting keys never changes the canonical text or digest, and it agrees with a reference canonicalizer",
    () => {
      const count = tortureSeeds() * 100;
      const rng = new Rng(0x6a09e667);
      let permutations = 0;
      for (let i = 0; i < count; i++) {
        const doc = randomJson(rng, 1 + rng.int(5));
        const text = canonicalJson(doc);
        const digest = digestJson(doc);
        expect(text, `document ${i}`).toBe(referenceCanonical(doc));
        expect(digest).toBe(digestText(text));
        // A round trip through JSON is a fixed point: canonical text is its own canonical form.
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        for (let p = 0; p < 3; p++) {
          const permuted = permuteKeys(doc, rng);
          permutations++;
          expect(canonicalJson(permuted), `document ${i}, permutation ${p}`).toBe(text);
          expect(digestJson(permuted)).toBe(digest);
        }
      }
      reportFigure("canonical-json permutations", { documents: count, permutations, digestMismatches: 0 });
    },
    tortureTimeout(1500),
  );
});

type Injection = { reason: CanonicalJsonRejection; make: (container: JsonValue) => unknown; key?: string };

class Point {
  readonly x: number;
  constructor(x: number) {
    this.x = x;
  }
}

const INJECTIONS: Injection[] = [
  { reason: "non_finite_number", make: () => Number.NaN },
  { reason: "non_finite_number", make: () => Number.POSITIVE_INFINITY },
  { reason: "non_finite_number", make: () => Number.NEGATIVE_INFINITY },
  { reason: "lone_surrogate", make: () => "ok\ud800" },
  { reason: "lone_surrogate", make: () => "\udc00tail" },
  { reason: "lone_surrogate", make: () => "fine", key: "bad\ud83d" },
  { reason: "undefined", make: () => undefined },
  { reason: "function", make: () => () => 1 },
  { reason: "function", make: () => class Empty {} },
  { reason: "symbol", make: () => Symbol("s") },
  { reason: "bigint", make: () => 10n },
  { reason: "date", make: () => new Date(0) },
  { reason: "map", make: () => new Map([["a", 1]]) },
  { reason: "set", make: () => new Set([1]) },
  { reason: "class_instance", make: () => new Point(1) },
  { reason: "class_instance", make: () => new Uint8Array([1, 2]) },
  { reason: "class_instance", make: () => new URL("https://example.com/") },
  { reason: "class_instance", make: () => new Error("boom") },
  { reason: "class_instance", make: () => /re/ },
  { reason: "class_instance", make: () => Promise.resolve(1) },
  { reason: "cycle", make: (container) => container },
];

/** Puts `value` into the container at `path` under a new key (object) or at the end (array); returns the new key path. */
function inject(root: JsonValue, path: (string | number)[], value: unknown, key = "zz_injected"): (string | number)[] {
  const container = valueAt(root, path) as unknown as Record<string, unknown> | unknown[];
  if (Array.isArray(container)) {
    if (key === "zz_injected") {
      container.push(value);
      return [...path, container.length - 1];
    }
    // A bad key needs an object: push one holding it.
    const holder = {};
    setOwn(holder, key, value);
    container.push(holder);
    return [...path, container.length - 1, key];
  }
  setOwn(container, key, value);
  return [...path, key];
}

describe("the rejection list, injected anywhere", () => {
  it(
    "every rejected value is refused with its reason and path, wherever it sits",
    () => {
      const count = tortureSeeds() * 50;
      const rng = new Rng(0xbb67ae85);
      const byReason = new Map<string, number>();
      let tried = 0;
      for (let i = 0; i < count; i++) {
        for (const injection of INJECTIONS) {
          let root = randomJson(rng, 1 + rng.int(4));
          if (root === null || typeof root !== "object") root = { wrap: root };
          const paths = containerPaths(root);
          const at = rng.pick(paths);
          const keyPath = inject(root, at, injection.make(valueAt(root, at)), injection.key);
          let thrown: unknown;
          try {
            canonicalJson(root);
          } catch (error) {
            thrown = error;
          }
          tried++;
          expect(thrown, `${injection.reason} at ${pathOf(keyPath)}`).toBeInstanceOf(CanonicalJsonError);
          expect((thrown as CanonicalJsonError).reason).toBe(injection.reason);
          expect((thrown as CanonicalJsonError).path).toBe(pathOf(keyPath));
          // Nothing is hashed either: digestJson goes through the same gate.
          expect(() => digestJson(root)).toThrow(CanonicalJsonError);
          byReason.set(injection.reason, (byReason.get(injection.reason) ?? 0) + 1);
        }
      }
      reportFigure("canonical-json rejections", { injected: tried, accepted: 0, ...Object.fromEntries(byReason) });
    },
    tortureTimeout(1500),
  );

  it(
    "a shared (non-cyclic) reference is accepted; nesting past the limit is refused wherever the deep branch sits",
    () => {
      const rng = new Rng(0x3c6ef372);
      const count = tortureSeeds() * 5;
      for (let i = 0; i < count; i++) {
        const shared = randomJson(rng, 2);
        expect(canonicalJson({ a: shared, b: [shared, shared] })).toBe(referenceCanonical({ a: shared, b: [shared, shared] }));
        let deep: JsonValue = randomJson(rng, 0);
        for (let d = 0; d < MAX_CANONICAL_DEPTH; d++) deep = rng.bool() ? [deep] : { d: deep };
        let root = randomJson(rng, 2);
        if (root === null || typeof root !== "object") root = [root];
        inject(root, rng.pick(containerPaths(root)), deep);
        expect(() => canonicalJson(root)).toThrow(expect.objectContaining({ reason: "too_deep" }));
      }
      reportFigure("canonical-json depth and sharing", { sharedAccepted: count, tooDeepRefused: count });
    },
    tortureTimeout(500),
  );
});
