import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { canonicalJson } from "./canonical-json.ts";

/** `sha256:` followed by 64 lowercase hex digits. */
export type Digest = `sha256:${string}`;

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** True when the string is a well-formed {@link Digest}. */
export function isDigest(value: unknown): value is Digest {
  return typeof value === "string" && DIGEST_PATTERN.test(value);
}

/**
 * Digest of raw text (its UTF-8 bytes), e.g. a code.run file's content.
 *
 * @example
 * digestText("hello") // "sha256:2cf24dba…"
 */
export function digestText(text: string): Digest {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`;
}

/**
 * Digest of a JSON value: sha256 over the UTF-8 bytes of its RFC 8785 canonical form. Equal
 * documents give equal digests regardless of key order.
 *
 * @example
 * digestJson({ b: 1, a: 2 }) === digestJson({ a: 2, b: 1 }) // true
 */
export function digestJson(value: unknown): Digest {
  return digestText(canonicalJson(value));
}

/** The first `n` hex digits of a digest, used to mint readable ids (`wfver_` + 16 hex). */
export function digestPrefix(digest: Digest, n: number): string {
  return digest.slice("sha256:".length, "sha256:".length + n);
}
