import { decodeTagged, encodeTagged } from "../identity/tagged-json.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import { type Digest, digestText, isDigest } from "../json/digest.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import { RunFailure } from "./run-failure.ts";

/** Outputs larger than this (canonical JSON, UTF-8) go to the blob store by reference. */
export const INLINE_OUTPUT_LIMIT = 256 * 1024;

/** What an event holds instead of a large output. */
export type BlobRef = { readonly $blob: Digest; readonly bytes: number };

/**
 * `$blob` is reserved at the top of a recorded value: only {@link recordable} writes it, for a
 * reference. A step's own output that carries the key (say a tool returning `{ "$blob":
 * "sha256:…", "bytes": 9 }`) is recorded escaped as `{ "$object": {...} }`, which
 * `decodeTagged` unwraps, so no value can make a resume read a blob it never stored.
 */
const RESERVED_KEY = "$blob";

export function isBlobRef(value: unknown): value is BlobRef {
  return typeof value === "object" && value !== null && isDigest((value as { $blob?: unknown }).$blob) && Object.keys(value).length === 2;
}

/** The value to record for an output: itself (tagged) when small, else a reference to its stored blob. */
export async function recordable(output: unknown, blobs: BlobStore, redact?: (value: unknown) => unknown): Promise<unknown> {
  const value = encodedOutput(output, redact);
  if (value.bytes <= INLINE_OUTPUT_LIMIT) return value.encoded;
  const digest = digestText(value.text);
  await blobs.put(digest, value.text);
  return { $blob: digest, bytes: value.bytes } satisfies BlobRef;
}

/**
 * The value to record for an output when it is small enough to go inline, else undefined (it
 * needs {@link recordable}'s blob): for a writer that records it in the same turn as it decided it.
 */
export function inlineRecordable(output: unknown, redact?: (value: unknown) => unknown): unknown {
  const value = encodedOutput(output, redact);
  return value.bytes <= INLINE_OUTPUT_LIMIT ? value.encoded : undefined;
}

function encodedOutput(output: unknown, redact?: (value: unknown) => unknown): { encoded: unknown; text: string; bytes: number } {
  // Redacted before it can reach the blob store: the event's own redaction comes too late for a blob.
  const encoded = escapeReserved(redact ? redact(encodeTagged(output)) : encodeTagged(output));
  const text = canonicalJson(encoded);
  return { encoded, text, bytes: new TextEncoder().encode(text).length };
}

/** The output a recorded value stands for, reading (and verifying) its blob when it is a reference. */
export async function resolveRecorded(value: unknown, blobs: BlobStore): Promise<unknown> {
  if (!isBlobRef(value)) return decodeTagged(value);
  const text = await blobs.get(value.$blob);
  if (text === null) throw new RunFailure("internal_error", `Blob ${value.$blob} is missing from the blob store`);
  if (digestText(text) !== value.$blob)
    throw new RunFailure("code_integrity", `Blob ${value.$blob} no longer matches its digest; refusing to use it`);
  return decodeTagged(JSON.parse(text));
}

function escapeReserved(encoded: unknown): unknown {
  const isRecord = typeof encoded === "object" && encoded !== null && !Array.isArray(encoded);
  return isRecord && Object.hasOwn(encoded, RESERVED_KEY) ? { $object: encoded } : encoded;
}
