import { describe, expect, it } from "vitest";
import {
  assertCanonicalizable,
  CANONICALIZER_ID,
  canonicalJson,
  type JsonValue,
  MAX_CANONICAL_DEPTH,
} from "../../src/json/canonical-json.ts";
import { digestJson } from "../../src/json/digest.ts";
import { CanonicalJsonError, type CanonicalJsonRejection } from "../../src/sdk/errors/canonical-json-error.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Runs canonicalJson and returns the CanonicalJsonError it threw; fails if it threw nothing or something else. */
function rejectionOf(value: unknown): CanonicalJsonError {
  let thrown: unknown;
  try {
    canonicalJson(value);
  } catch (error) {
    thrown = error;
  }
  if (thrown === undefined) throw new Error("expected canonicalJson to throw CanonicalJsonError, but it accepted the value");
  if (!(thrown instanceof CanonicalJsonError)) {
    throw new Error(`expected CanonicalJsonError, got ${String(thrown)}`, { cause: thrown });
  }
  return thrown;
}

function expectRejection(value: unknown, reason: CanonicalJsonRejection, path: string): CanonicalJsonError {
  const error = rejectionOf(value);
  expect(error).toBeInstanceOf(CanonicalJsonError);
  expect(error).toBeInstanceOf(LittleError);
  expect(LittleError.is(error)).toBe(true);
  expect(error.code).toBe("canonical_json_rejected");
  expect(error.name).toBe("CanonicalJsonError");
  expect({ reason: error.reason, path: error.path }).toEqual({ reason, path });
  expect(error.message).toContain(path);
  // assertCanonicalizable is the same gate, used on its own by callers that validate before storing.
  let viaAssert: unknown;
  try {
    assertCanonicalizable(value);
  } catch (e) {
    viaAssert = e;
  }
  expect(viaAssert).toBeInstanceOf(CanonicalJsonError);
  expect((viaAssert as CanonicalJsonError).reason).toBe(reason);
  expect((viaAssert as CanonicalJsonError).path).toBe(path);
  return error;
}

/** `n` arrays nested in each other, the innermost holding `inner`: nestedArrays(2, 1) is [[1]]. */
function nestedArrays(n: number, inner?: JsonValue): JsonValue {
  let value: JsonValue = inner === undefined ? [] : [inner];
  for (let i = 1; i < n; i++) value = [value];
  return value;
}

/** `n` objects nested under key "a": nestedObjects(2) is {"a":{}}. */
function nestedObjects(n: number): JsonValue {
  let value: JsonValue = {};
  for (let i = 1; i < n; i++) value = { a: value };
  return value;
}

/** A double from its IEEE-754 bit pattern, e.g. "3ff0000000000000" is 1. */
function fromIeee754(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

/** Canonicalizes a JSON text the way the RFC's examples do: parse it first, so number literals become doubles. */
function canonicalOfText(text: string): string {
  return canonicalJson(JSON.parse(text));
}

// ---------------------------------------------------------------------------------------------
// An independent reference JCS, used as an oracle by the property test. Written from RFC 8785
// section 3.2 directly: no JSON.stringify, no default sort.
// ---------------------------------------------------------------------------------------------

function compareCodeUnits(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

const SHORT_ESCAPES = new Map<string, string>([
  ["\b", "\\b"],
  ["\t", "\\t"],
  ["\n", "\\n"],
  ["\f", "\\f"],
  ["\r", "\\r"],
  ['"', '\\"'],
  ["\\", "\\\\"],
]);

function referenceQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const short = SHORT_ESCAPES.get(s[i] as string);
    if (short !== undefined) out += short;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}

function referenceJcs(value: JsonValue): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  // ECMAScript Number::toString is exactly the JCS number form (and String(-0) is "0").
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return referenceQuote(value);
  if (Array.isArray(value)) return `[${value.map(referenceJcs).join(",")}]`;
  const keys = Object.keys(value).sort(compareCodeUnits);
  return `{${keys.map((k) => `${referenceQuote(k)}:${referenceJcs(value[k] as JsonValue)}`).join(",")}}`;
}

// ---------------------------------------------------------------------------------------------
// RFC 8785 vectors
// ---------------------------------------------------------------------------------------------

describe("canonicalJson: RFC 8785 (JCS) output", () => {
  it("exports a stable canonicalizer id and depth limit", () => {
    expect(CANONICALIZER_ID).toBe("little-workflow-canonical-json@alpha");
    expect(MAX_CANONICAL_DEPTH).toBe(512);
  });

  it("canonicalizes the RFC 8785 section 3.2.2 example exactly", () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50,
                  2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(canonicalOfText(input)).toBe(expected);
    // Spelled out without String.raw, to be sure of every byte of the expected text.
    expect(expected).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
    // The canonical form is itself a fixed point.
    expect(canonicalOfText(expected)).toBe(expected);
  });

  it("sorts the RFC 8785 section 3.2.3 example keys by UTF-16 code units", () => {
    const input = String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    const out = canonicalOfText(input);
    expect(out).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    // The property names in the canonical order the RFC lists.
    expect(Object.keys(JSON.parse(out) as object)).toEqual(["1", "\r", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
    // ^ JSON.parse re-orders the integer-like key "1" first (a JS quirk); the text order above is what counts.
    const textOrder = [...out.matchAll(/"([^"\\]|\\.)*":/g)].map((m) => JSON.parse(m[0].slice(0, -1)) as string);
    expect(textOrder).toEqual(["\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
  });

  it("puts an astral character (surrogate pair) before U+FB33, unlike code point or locale order", () => {
    const value = { "\ufb33": 1, "\u{1f600}": 2 };
    expect(canonicalJson(value)).toBe('{"\u{1f600}":2,"\ufb33":1}');
    // Sanity: code point order would put U+1F600 after U+FB33, so this test tells the two apart.
    expect((0x1f600 as number) > 0xfb33).toBe(true);
  });

  it("does not use localeCompare (uppercase before lowercase, accented letters after z)", () => {
    const keys = ["b", "a", "B", "A", "é", "z", "Z", "_", "e"];
    const value = Object.fromEntries(keys.map((k, i) => [k, i]));
    const out = canonicalJson(value);
    expect(out).toBe('{"A":3,"B":2,"Z":6,"_":7,"a":1,"b":0,"e":8,"z":5,"é":4}');
    const localeOrder = [...keys].sort((x, y) => x.localeCompare(y));
    expect(localeOrder).not.toEqual(["A", "B", "Z", "_", "a", "b", "e", "z", "é"]);
  });

  it("sorts integer-like keys as strings, not in JS property order", () => {
    const value = { b: 0, "10": 1, "9": 2, "2": 3, "007": 4, "": 5 };
    // JS enumerates "2","9","10" first, numerically; JCS compares them as strings.
    expect(Object.keys(value).slice(0, 3)).toEqual(["2", "9", "10"]);
    expect(canonicalJson(value)).toBe('{"":5,"007":4,"10":1,"2":3,"9":2,"b":0}');
  });

  it("orders a key before its extensions (prefix rule)", () => {
    expect(canonicalJson({ ab: 1, a: 2, "a\u0000": 3, abc: 4 })).toBe('{"a":2,"a\\u0000":3,"ab":1,"abc":4}');
  });

  it("sorts nested objects recursively, including objects inside arrays", () => {
    const value = { z: { y: 1, x: [{ d: 1, c: 2 }, { b: { f: 1, e: 2 } }] }, a: null };
    expect(canonicalJson(value)).toBe('{"a":null,"z":{"x":[{"c":2,"d":1},{"b":{"e":2,"f":1}}],"y":1}}');
  });

  it("keeps array order", () => {
    expect(canonicalJson([3, 1, 2, "b", "a", null, true, false])).toBe('[3,1,2,"b","a",null,true,false]');
    expect(canonicalJson([[2, 1], { b: 1, a: 2 }, []])).toBe('[[2,1],{"a":2,"b":1},[]]');
  });

  it("emits no whitespace", () => {
    const pretty = '{\n  "b" : [ 1 , 2 ,\t3 ] ,\r\n  "a" : { "c" : "x y" }\n}';
    expect(canonicalOfText(pretty)).toBe('{"a":{"c":"x y"},"b":[1,2,3]}');
  });

  it("serializes empty containers, literals and top-level scalars", () => {
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({ a: {}, b: [] })).toBe('{"a":{},"b":[]}');
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson(true)).toBe("true");
    expect(canonicalJson(false)).toBe("false");
    expect(canonicalJson(0)).toBe("0");
    expect(canonicalJson("")).toBe('""');
    expect(canonicalJson("x")).toBe('"x"');
  });

  describe("string escaping", () => {
    it("escapes every control character U+0000..U+001F, using the short forms only for \\b \\t \\n \\f \\r", () => {
      const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };
      for (let c = 0; c < 0x20; c++) {
        const expected = short[c] ?? `\\u00${c.toString(16).padStart(2, "0")}`;
        expect(canonicalJson(String.fromCharCode(c)), `U+${c.toString(16)}`).toBe(`"${expected}"`);
      }
    });

    it("uses lowercase hex in \\u escapes", () => {
      expect(canonicalJson("\u000f\u001f\u001a\u000b")).toBe('"\\u000f\\u001f\\u001a\\u000b"');
      expect(canonicalJson("\u0000")).toBe('"\\u0000"');
    });

    it("escapes only quote and backslash among printable ASCII; '/' stays as is", () => {
      expect(canonicalJson('a"b\\c/d')).toBe('"a\\"b\\\\c/d"');
      let printable = "";
      for (let c = 0x20; c < 0x7f; c++) printable += String.fromCharCode(c);
      const out = canonicalJson(printable);
      expect(out).toBe(`"${printable.replace("\\", "\\\\").replace('"', '\\"')}"`);
      expect(out).toContain("/");
      expect(out).not.toContain("\\/");
    });

    it("leaves DEL, non-ASCII, U+2028/U+2029, BOM and astral characters unescaped", () => {
      const s = "\u007f\u0080\u00e9\u20ac\u2028\u2029\ufeff\uffff\u{1f600}\u{10ffff}";
      expect(canonicalJson(s)).toBe(`"${s}"`);
      expect(canonicalJson(s)).not.toContain("\\u");
      expect(canonicalJson({ [s]: s })).toBe(`{"${s}":"${s}"}`);
    });

    it("escapes keys the same way as values", () => {
      expect(canonicalJson({ "\n": 1, '"': 2, "\\": 3, "\u0001": 4 })).toBe('{"\\u0001":4,"\\n":1,"\\"":2,"\\\\":3}');
    });
  });

  describe("numbers (ECMAScript Number.prototype.toString form)", () => {
    const cases: Array<[string, string]> = [
      ["1e21", "1e+21"],
      ["1E21", "1e+21"],
      ["1e20", "100000000000000000000"],
      ["1e-7", "1e-7"],
      ["0.000001", "0.000001"],
      ["0.0000001", "1e-7"],
      ["-0", "0"],
      ["-0.0", "0"],
      ["0.0", "0"],
      ["333333333.33333329", "333333333.3333333"],
      ["1E30", "1e+30"],
      ["4.50", "4.5"],
      ["2e-3", "0.002"],
      ["0.000000000000000000000000001", "1e-27"],
      ["9007199254740992", "9007199254740992"],
      ["-9007199254740992", "-9007199254740992"],
      ["9007199254740993", "9007199254740992"],
      ["5e-324", "5e-324"],
      ["-5e-324", "-5e-324"],
      ["1.7976931348623157e308", "1.7976931348623157e+308"],
      ["-1.7976931348623157e308", "-1.7976931348623157e+308"],
      ["100", "100"],
      ["1.0", "1"],
      ["-1.5", "-1.5"],
      ["0.1", "0.1"],
      ["123456789012345680000", "123456789012345680000"],
      ["1.5e300", "1.5e+300"],
    ];
    it.each(cases)("%s -> %s", (literal, expected) => {
      // Parsed from text, as the RFC does, so the literal goes through the same double rounding.
      expect(canonicalOfText(literal)).toBe(expected);
      expect(canonicalOfText(`[${literal}]`)).toBe(`[${expected}]`);
      expect(canonicalOfText(`{"n":${literal}}`)).toBe(`{"n":${expected}}`);
    });

    it("writes -0 as 0 when it comes from JS, not only from parsed text", () => {
      expect(canonicalJson(-0)).toBe("0");
      expect(canonicalJson({ a: -0, b: [-0] })).toBe('{"a":0,"b":[0]}');
    });

    it("0.1 + 0.2 keeps its full shortest round-trip form", () => {
      expect(canonicalJson(0.1 + 0.2)).toBe("0.30000000000000004");
    });

    // RFC 8785 Appendix B: IEEE-754 bit patterns and their required serialization.
    const appendixB: Array<[string, string]> = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
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
    it.each(appendixB)("Appendix B: %s -> %s", (bits, expected) => {
      const n = fromIeee754(bits);
      expect(canonicalJson(n)).toBe(expected);
      expect(canonicalJson([n])).toBe(`[${expected}]`);
    });

    it.each([
      ["7fffffffffffffff", "NaN"],
      ["7ff0000000000000", "Infinity"],
      ["fff0000000000000", "-Infinity"],
    ])("Appendix B: %s (%s) is rejected", (bits) => {
      expectRejection(fromIeee754(bits), "non_finite_number", "$");
    });
  });

  describe("values it accepts", () => {
    it("accepts a shared (non-cyclic) reference used twice, serializing it at both places", () => {
      const shared = { y: [1, 2], x: "s" };
      const value = { a: shared, b: [shared, shared], c: { d: shared } };
      const expectedShared = '{"x":"s","y":[1,2]}';
      expect(canonicalJson(value)).toBe(`{"a":${expectedShared},"b":[${expectedShared},${expectedShared}],"c":{"d":${expectedShared}}}`);
      const sharedArray = [1, { k: true }];
      expect(canonicalJson([sharedArray, sharedArray, [sharedArray]])).toBe('[[1,{"k":true}],[1,{"k":true}],[[1,{"k":true}]]]');
    });

    it("accepts Object.create(null) objects, sorted like any other object", () => {
      const bare = Object.create(null) as Record<string, unknown>;
      bare.b = 1;
      bare.a = Object.assign(Object.create(null) as object, { d: [true], c: null });
      expect(canonicalJson(bare)).toBe('{"a":{"c":null,"d":[true]},"b":1}');
      expect(canonicalJson({ nested: bare })).toBe('{"nested":{"a":{"c":null,"d":[true]},"b":1}}');
    });

    it("keeps an own '__proto__' key from JSON.parse as ordinary data", () => {
      const value = JSON.parse('{"b":2,"__proto__":{"z":1,"y":0}}') as unknown;
      expect(canonicalJson(value)).toBe('{"__proto__":{"y":0,"z":1},"b":2}');
    });

    it("accepts nesting of exactly MAX_CANONICAL_DEPTH containers (arrays and objects)", () => {
      const arrays = nestedArrays(MAX_CANONICAL_DEPTH, 7);
      expect(canonicalJson(arrays)).toBe(`${"[".repeat(MAX_CANONICAL_DEPTH)}7${"]".repeat(MAX_CANONICAL_DEPTH)}`);
      const objects = nestedObjects(MAX_CANONICAL_DEPTH);
      expect(canonicalJson(objects)).toBe(`${'{"a":'.repeat(MAX_CANONICAL_DEPTH - 1)}{}${"}".repeat(MAX_CANONICAL_DEPTH - 1)}`);
    });

    it("does not mutate its input", () => {
      const value = { b: [3, { d: 1, c: 2 }], a: "x" };
      const before = JSON.stringify(value);
      canonicalJson(value);
      expect(JSON.stringify(value)).toBe(before);
      expect(Object.keys(value)).toEqual(["b", "a"]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rejections
// ---------------------------------------------------------------------------------------------

describe("canonicalJson: rejections", () => {
  class Point {
    x: number;
    y: number;
    constructor(x: number, y: number) {
      this.x = x;
      this.y = y;
    }
  }

  const cases: Array<[string, () => unknown, CanonicalJsonRejection, string]> = [
    ["NaN at the root", () => Number.NaN, "non_finite_number", "$"],
    ["NaN in an array", () => ({ a: [1, Number.NaN] }), "non_finite_number", "$.a[1]"],
    ["Infinity", () => ({ a: [0, Number.POSITIVE_INFINITY] }), "non_finite_number", "$.a[1]"],
    ["-Infinity", () => ({ x: { y: Number.NEGATIVE_INFINITY } }), "non_finite_number", "$.x.y"],
    ["a lone high surrogate as a value", () => ({ a: ["ok", "x\ud800"] }), "lone_surrogate", "$.a[1]"],
    ["a lone high surrogate at the root", () => "\ud800", "lone_surrogate", "$"],
    ["a lone high surrogate at the end of a string", () => ({ s: "abc\ud83d" }), "lone_surrogate", "$.s"],
    ["a lone low surrogate as a value", () => ({ s: "\udc00" }), "lone_surrogate", "$.s"],
    ["a reversed surrogate pair", () => ({ s: "\ude00\ud83d" }), "lone_surrogate", "$.s"],
    ["a lone high surrogate as a key", () => ({ a: [0, { ok: 1, "\ud800": 1 }] }), "lone_surrogate", '$.a[1]["\\ud800"]'],
    ["a lone low surrogate as a key", () => ({ "k\udfff": true }), "lone_surrogate", '$["k\\udfff"]'],
    ["undefined at the root", () => undefined, "undefined", "$"],
    ["undefined as an object property", () => ({ a: 1, b: { c: undefined } }), "undefined", "$.b.c"],
    ["undefined as an array element", () => ({ a: [1, undefined] }), "undefined", "$.a[1]"],
    // biome-ignore lint/suspicious/noSparseArray: a hole is exactly what this case is about
    ["a hole in a sparse array", () => ({ a: [1, , 3] }), "undefined", "$.a[1]"],
    ["a function", () => ({ a: [0, () => 1] }), "function", "$.a[1]"],
    ["a function at the root", () => () => 1, "function", "$"],
    ["a toJSON method (not honoured, refused)", () => ({ v: { toJSON: () => "x" } }), "function", "$.v.toJSON"],
    ["a symbol", () => ({ a: [0, Symbol("s")] }), "symbol", "$.a[1]"],
    ["a BigInt", () => ({ a: [0, 10n] }), "bigint", "$.a[1]"],
    ["a BigInt at the root", () => 1n, "bigint", "$"],
    ["a Date", () => ({ a: [0, new Date(0)] }), "date", "$.a[1]"],
    ["a Map", () => ({ a: [0, new Map([["k", 1]])] }), "map", "$.a[1]"],
    ["an empty Map", () => ({ m: new Map() }), "map", "$.m"],
    ["a Set", () => ({ a: [0, new Set([1])] }), "set", "$.a[1]"],
    ["a class instance", () => ({ a: [0, new Point(1, 2)] }), "class_instance", "$.a[1]"],
    ["a class instance at the root", () => new Point(1, 2), "class_instance", "$"],
    ["a boxed number", () => ({ n: Object(1) as unknown }), "class_instance", "$.n"],
    ["a boxed string", () => ({ s: Object("x") as unknown }), "class_instance", "$.s"],
    ["a RegExp", () => ({ r: /x/ }), "class_instance", "$.r"],
    ["a Uint8Array", () => ({ b: new Uint8Array([1, 2]) }), "class_instance", "$.b"],
    ["an Error", () => ({ e: new Error("x") }), "class_instance", "$.e"],
    ["an object inheriting from a plain object", () => ({ o: Object.create({ inherited: 1 }) as unknown }), "class_instance", "$.o"],
    ["a value under a non-identifier key", () => ({ "a b": { "score.ts": Number.NaN } }), "non_finite_number", '$["a b"]["score.ts"]'],
  ];

  it.each(cases)("refuses %s", (_name, build, reason, path) => {
    expectRejection(build(), reason, path);
  });

  it("reports the first offending value in canonical walk order, with its path", () => {
    // Several are bad; the walk visits object members in insertion order and arrays front to back.
    expect(rejectionOf({ a: [1, 2, { b: undefined }], c: Number.NaN }).path).toBe("$.a[2].b");
    expect(rejectionOf({ x: Number.NaN, y: undefined, z: 1n }).path).toBe("$.x");
    expect(rejectionOf({ y: undefined, x: Number.NaN }).path).toBe("$.y");
    expect(rejectionOf([{ ok: 1 }, [0, Symbol("first")], () => 0]).path).toBe("$[1][1]");
    // Keys of an object are checked before any of its members' values.
    expect(rejectionOf({ a: Number.NaN, "\ud800": 1 }).reason).toBe("lone_surrogate");
  });

  it("refuses an object cycle, naming the path that closes it", () => {
    const a: Record<string, unknown> = { x: {} };
    (a.x as Record<string, unknown>).self = a;
    expectRejection(a, "cycle", "$.x.self");
  });

  it("refuses a self-referencing object at the root", () => {
    const a: Record<string, unknown> = { k: 1 };
    a.me = a;
    expectRejection(a, "cycle", "$.me");
  });

  it("refuses an array cycle", () => {
    const arr: unknown[] = [1];
    arr.push(arr);
    expectRejection({ list: arr }, "cycle", "$.list[1]");
  });

  it("refuses a cycle through a mix of arrays and objects", () => {
    const inner: Record<string, unknown> = {};
    const outer = { steps: [{ with: inner }] };
    inner.back = outer.steps;
    expectRejection(outer, "cycle", "$.steps[0].with.back");
  });

  it("refuses nesting one deeper than MAX_CANONICAL_DEPTH, pointing at the container too deep", () => {
    expectRejection(nestedArrays(MAX_CANONICAL_DEPTH + 1), "too_deep", `$${"[0]".repeat(MAX_CANONICAL_DEPTH)}`);
    expectRejection(nestedObjects(MAX_CANONICAL_DEPTH + 1), "too_deep", `$${".a".repeat(MAX_CANONICAL_DEPTH)}`);
  });

  it("refuses 10,000 levels of nesting with too_deep, not a stack overflow", () => {
    for (const value of [nestedArrays(10_000), nestedObjects(10_000), JSON.parse(`${"[".repeat(10_000)}${"]".repeat(10_000)}`)]) {
      const error = rejectionOf(value);
      expect(error).not.toBeInstanceOf(RangeError);
      expect(error.reason).toBe("too_deep");
      expect(error.path.startsWith("$[0]") || error.path.startsWith("$.a")).toBe(true);
    }
  });

  it("refuses before hashing: digestJson throws the same error", () => {
    expect(() => digestJson({ when: new Date(0) })).toThrow(CanonicalJsonError);
    expect(() => digestJson({ a: [Number.NaN] })).toThrow(/\$\.a\[0\]/);
  });

  it("serializes the error as a stable code for the HTTP layer", () => {
    const error = rejectionOf({ a: 1n });
    expect(error.toJSON()).toEqual({ code: "canonical_json_rejected", message: error.message });
  });
});

// ---------------------------------------------------------------------------------------------
// Property test: permuted keys, round trip, idempotence, reference oracle
// ---------------------------------------------------------------------------------------------

/** mulberry32: a tiny deterministic 32-bit PRNG, so failures reproduce from the seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;

const intBelow = (rand: Rand, n: number): number => Math.floor(rand() * n);
const pick = <T>(rand: Rand, items: readonly T[]): T => items[intBelow(rand, items.length)] as T;

const KEY_POOL = [
  "",
  "a",
  "A",
  "b",
  "aa",
  "ab",
  "a\u0000",
  "1",
  "10",
  "9",
  "007",
  "__proto__",
  "toJSON",
  "é",
  "\u20ac",
  "\ufb33",
  "\u{1f600}",
  "\r",
  "key with space",
  "\u0080",
];

function randomChar(rand: Rand): string {
  switch (intBelow(rand, 8)) {
    case 0:
      return String.fromCharCode(intBelow(rand, 0x20)); // control characters
    case 1:
      return pick(rand, ['"', "\\", "/", "\u007f", "\u2028", "\u2029", "\ufeff", "\uffff"]);
    case 2:
      return String.fromCharCode(0x80 + intBelow(rand, 0x80)); // Latin-1 supplement
    case 3:
      return String.fromCharCode(0x100 + intBelow(rand, 0xd800 - 0x100)); // BMP below the surrogates
    case 4:
      return String.fromCharCode(0xe000 + intBelow(rand, 0x10000 - 0xe000)); // BMP above the surrogates
    case 5:
      return String.fromCodePoint(0x10000 + intBelow(rand, 0x110000 - 0x10000)); // astral: a surrogate pair
    default:
      return String.fromCharCode(0x20 + intBelow(rand, 0x5f)); // printable ASCII
  }
}

function randomString(rand: Rand, maxLength: number): string {
  let s = "";
  const n = intBelow(rand, maxLength + 1);
  for (let i = 0; i < n; i++) s += randomChar(rand);
  return s;
}

function randomKey(rand: Rand): string {
  const r = rand();
  if (r < 0.35) return pick(rand, KEY_POOL);
  if (r < 0.45) return String(intBelow(rand, 1000)); // integer-like keys enumerate out of insertion order in JS
  return randomString(rand, 6);
}

function randomNumber(rand: Rand): number {
  let n: number;
  switch (intBelow(rand, 6)) {
    case 0:
      n = intBelow(rand, 2001) - 1000;
      break;
    case 1:
      n = Math.floor((rand() * 2 - 1) * Number.MAX_SAFE_INTEGER);
      break;
    case 2:
      n = (rand() * 2 - 1) * 10 ** (intBelow(rand, 61) - 30);
      break;
    case 3: {
      // Any finite double, from random bits: exercises every exponent and the shortest-form printer.
      const view = new DataView(new ArrayBuffer(8));
      do {
        view.setUint32(0, Math.floor(rand() * 2 ** 32));
        view.setUint32(4, Math.floor(rand() * 2 ** 32));
        n = view.getFloat64(0);
      } while (!Number.isFinite(n));
      break;
    }
    case 4:
      n = pick(rand, [
        0,
        1e21,
        1e-7,
        1e-6,
        1e20,
        Number.MIN_VALUE,
        Number.MAX_VALUE,
        Number.MAX_SAFE_INTEGER,
        Number.EPSILON,
        0.1 + 0.2,
        -1.5,
      ]);
      break;
    default:
      n = Math.round(rand() * 1e6) / 100;
  }
  // -0 canonicalizes to "0" and parses back as 0, which toEqual tells apart from -0; -0 is covered above.
  return Object.is(n, -0) ? 0 : n;
}

function setOwn(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  // defineProperty, not assignment, so a "__proto__" key is an own data property (as JSON.parse makes it).
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function randomJson(rand: Rand, depth: number): JsonValue {
  const containerChance = depth >= 5 ? 0 : 0.45 - depth * 0.07;
  const r = rand();
  if (r < containerChance / 2) {
    const n = intBelow(rand, 6);
    const arr: JsonValue[] = [];
    for (let i = 0; i < n; i++) arr.push(randomJson(rand, depth + 1));
    return arr;
  }
  if (r < containerChance) {
    const n = intBelow(rand, 7);
    const obj: Record<string, JsonValue> = {};
    for (let i = 0; i < n; i++) setOwn(obj, randomKey(rand), randomJson(rand, depth + 1));
    return obj;
  }
  switch (intBelow(rand, 6)) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
    case 3:
      return randomNumber(rand);
    default:
      return randomString(rand, 12);
  }
}

/** A deep copy with every object's keys inserted in a freshly shuffled order. */
function shuffleKeys(value: JsonValue, rand: Rand): JsonValue {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, rand));
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = intBelow(rand, i + 1);
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  // Alternate plain and null-prototype copies: both must canonicalize the same.
  const out: Record<string, JsonValue> = rand() < 0.5 ? {} : (Object.create(null) as Record<string, JsonValue>);
  for (const key of keys) setOwn(out, key, shuffleKeys(value[key] as JsonValue, rand));
  return out;
}

describe("canonicalJson: property test over random documents (seeded)", () => {
  it("is key-order independent, round-trips, is idempotent and matches a reference JCS on 2,000 documents", () => {
    const SEED = 0x5eed_c0de;
    const rand = mulberry32(SEED);
    let objectsReordered = 0;
    let astral = 0;
    for (let i = 0; i < 2000; i++) {
      // Top level is always a container so most documents have structure.
      const doc: JsonValue =
        rand() < 0.8
          ? { [randomKey(rand)]: randomJson(rand, 1), [randomKey(rand)]: randomJson(rand, 1) }
          : [randomJson(rand, 1), randomJson(rand, 1)];
      const shuffled = shuffleKeys(doc, rand);
      const label = `seed ${SEED}, document #${i}`;

      const canonical = canonicalJson(doc);
      if (JSON.stringify(doc) !== JSON.stringify(shuffled)) objectsReordered++;
      if (/[\ud800-\udbff]/.test(canonical)) astral++;

      expect(canonicalJson(shuffled), label).toBe(canonical);
      expect(digestJson(shuffled), label).toBe(digestJson(doc));
      expect(canonical, label).toBe(referenceJcs(doc));
      const reparsed = JSON.parse(canonical) as JsonValue;
      expect(reparsed, label).toEqual(doc);
      expect(canonicalJson(reparsed), label).toBe(canonical);
    }
    // The generator really exercised what the test claims to cover.
    expect(objectsReordered).toBeGreaterThan(500);
    expect(astral).toBeGreaterThan(200);
  });

  it("gives different canonical text (and digests) for documents that differ", () => {
    const rand = mulberry32(42);
    const seen = new Map<string, string>();
    for (let i = 0; i < 300; i++) {
      const doc = randomJson(rand, 0);
      const canonical = canonicalJson(doc);
      const digest = digestJson(doc);
      const prior = seen.get(digest);
      if (prior !== undefined) expect(prior).toBe(canonical);
      seen.set(digest, canonical);
    }
    expect(digestJson({ a: 1 })).not.toBe(digestJson({ a: "1" }));
    expect(digestJson([1, 2])).not.toBe(digestJson([2, 1]));
    expect(digestJson({ a: null })).not.toBe(digestJson({}));
  });
});
