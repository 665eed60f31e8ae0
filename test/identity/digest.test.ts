import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/json/canonical-json.ts";
import { type Digest, digestJson, digestPrefix, digestText, isDigest } from "../../src/json/digest.ts";
import { CanonicalJsonError } from "../../src/sdk/errors/canonical-json-error.ts";
import seedComputeScore from "../fixtures/lwir/seed-compute-score-step.json";

/** sha256 of raw bytes via WebCrypto, formatted as a Digest: an implementation independent of @noble/hashes. */
async function webCryptoDigest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const SEED_SCORE_TS = "export async function run({ input }) {\n  return { score: input.signals.length / 10 };\n}";

describe("digestText", () => {
  it("hashes the empty string to the well-known SHA-256 of no bytes", () => {
    expect(digestText("")).toBe("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("matches FIPS 180-2 / well-known vectors", () => {
    expect(digestText("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(digestText("hello")).toBe("sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    expect(digestText("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("reproduces the seed code.run file digest from the spec", () => {
    expect(digestText(SEED_SCORE_TS)).toBe("sha256:1ed396c7cbeba5c323250026707a76c1e1ad3f62572334094e5167c357c6de7c");
  });

  it("agrees with the seed fixture's recorded file hash", () => {
    const file = seedComputeScore.with.files["score.ts"];
    expect(file.content).toBe(SEED_SCORE_TS);
    expect(digestText(file.content)).toBe(file.sha256);
  });

  it("hashes UTF-8 bytes, not Latin-1 or UTF-16 code units", async () => {
    const utf8Hash = await webCryptoDigest(new Uint8Array([0xc3, 0xa9]));
    const latin1Hash = await webCryptoDigest(new Uint8Array([0xe9]));
    const utf16leHash = await webCryptoDigest(new Uint8Array([0xe9, 0x00]));
    expect(utf8Hash).toBe("sha256:4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
    expect(digestText("é")).toBe(utf8Hash);
    expect(digestText("é")).not.toBe(latin1Hash);
    expect(digestText("é")).not.toBe(utf16leHash);
    // An astral character is 4 UTF-8 bytes (not two 3-byte CESU-8 surrogates).
    expect(digestText("\u{1f600}")).toBe(await webCryptoDigest(new Uint8Array([0xf0, 0x9f, 0x98, 0x80])));
  });

  it("matches WebCrypto on assorted text", async () => {
    for (const text of ["", "a", "é€😀", "\u0000\n\r\t", "x".repeat(1000), SEED_SCORE_TS, "line\r\nending"]) {
      expect(digestText(text)).toBe(await webCryptoDigest(utf8(text)));
    }
  });

  it("is sensitive to every byte (whitespace and line endings included)", () => {
    expect(digestText("a\n")).not.toBe(digestText("a"));
    expect(digestText("a\r\n")).not.toBe(digestText("a\n"));
    expect(digestText("A")).not.toBe(digestText("a"));
  });

  it("returns a well-formed Digest", () => {
    expect(isDigest(digestText("anything"))).toBe(true);
  });
});

describe("digestJson", () => {
  it("is the digest of the canonical form's UTF-8 bytes", () => {
    expect(digestJson({ b: 1, a: 2 })).toBe(digestText('{"a":2,"b":1}'));
    expect(digestJson({ a: "é" })).toBe(digestText('{"a":"é"}'));
    expect(digestJson(null)).toBe(digestText("null"));
    // A JSON string is hashed with its quotes: not the same as the raw text.
    expect(digestJson("")).toBe(digestText('""'));
    expect(digestJson("")).not.toBe(digestText(""));
  });

  it("gives the same digest for permuted keys, at every level", () => {
    const a = { name: "x", steps: [{ id: "s1", with: { z: 1, y: [1, 2] } }], meta: { b: true, a: null } };
    const b = { meta: { a: null, b: true }, steps: [{ with: { y: [1, 2], z: 1 }, id: "s1" }], name: "x" };
    expect(digestJson(a)).toBe(digestJson(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
  });

  it("gives the same digest for equal numbers written differently", () => {
    expect(digestJson(JSON.parse("[1.0, 1e2, -0, 4.50]"))).toBe(digestJson([1, 100, 0, 4.5]));
  });

  it("gives a different digest when a value, array order or a key changes", () => {
    const base = digestJson({ a: [1, 2], b: "x" });
    expect(digestJson({ a: [2, 1], b: "x" })).not.toBe(base);
    expect(digestJson({ a: [1, 2], b: "y" })).not.toBe(base);
    expect(digestJson({ a: [1, 2], c: "x" })).not.toBe(base);
  });

  it("matches WebCrypto over the canonical text for several documents", async () => {
    const docs: unknown[] = [
      {},
      [],
      null,
      { b: 1, a: [true, false, null] },
      JSON.parse(
        String.raw`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`,
      ),
      { "\u{1f600}": "astral", "\ufb33": "dalet", nested: { deep: [{ x: 1e21, y: 1e-7 }] } },
      seedComputeScore,
    ];
    for (const doc of docs) {
      const expected = await webCryptoDigest(utf8(canonicalJson(doc)));
      expect(digestJson(doc)).toBe(expected);
    }
  });

  it("matches WebCrypto on the RFC 8785 example's expected canonical bytes", async () => {
    const doc = JSON.parse(
      String.raw`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`,
    );
    const rfcCanonical = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(digestJson(doc)).toBe(await webCryptoDigest(utf8(rfcCanonical)));
  });

  it("throws CanonicalJsonError instead of hashing a lossy value", () => {
    expect(() => digestJson({ at: new Date(0) })).toThrow(CanonicalJsonError);
    expect(() => digestJson({ m: new Map() })).toThrow(CanonicalJsonError);
    expect(() => digestJson(undefined)).toThrow(CanonicalJsonError);
  });
});

describe("isDigest", () => {
  const hex64 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  it("accepts sha256: followed by 64 lowercase hex digits", () => {
    expect(isDigest(`sha256:${hex64}`)).toBe(true);
    expect(isDigest(`sha256:${"0".repeat(64)}`)).toBe(true);
    expect(isDigest(`sha256:${"f".repeat(64)}`)).toBe(true);
  });

  it.each([
    ["uppercase hex", `sha256:${hex64.toUpperCase()}`],
    ["uppercase prefix", `SHA256:${hex64}`],
    ["63 hex digits", `sha256:${hex64.slice(1)}`],
    ["65 hex digits", `sha256:${hex64}0`],
    ["no prefix", hex64],
    ["another algorithm", `sha512:${hex64}`],
    ["sha-256 spelling", `sha-256:${hex64}`],
    ["a non-hex digit", `sha256:${hex64.slice(1)}g`],
    ["a trailing newline", `sha256:${hex64}\n`],
    ["a leading space", ` sha256:${hex64}`],
    ["a trailing space", `sha256:${hex64} `],
    ["the empty string", ""],
    ["just the prefix", "sha256:"],
  ])("rejects %s", (_name, value) => {
    expect(isDigest(value)).toBe(false);
  });

  it("rejects non-strings", () => {
    for (const value of [null, undefined, 42, {}, [`sha256:${hex64}`], { toString: () => `sha256:${hex64}` }]) {
      expect(isDigest(value)).toBe(false);
    }
  });
});

describe("digestPrefix", () => {
  it("returns the first n hex digits after the prefix", () => {
    const digest = digestText("") as Digest;
    expect(digestPrefix(digest, 16)).toBe("e3b0c44298fc1c14");
    expect(digestPrefix(digest, 0)).toBe("");
    expect(digestPrefix(digest, 64)).toBe(digest.slice("sha256:".length));
  });
});
