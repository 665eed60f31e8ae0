import { canonicalJson } from "../identity/canonical-json.ts";
import { type Digest, digestText, isDigest } from "../identity/digest.ts";
import { decodeTagged, encodeTagged } from "../identity/tagged-json.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import { RunFailure } from "./run-failure.ts";

/** Outputs larger than this (canonical JSON, UTF-8) go to the blob store by reference. */
export const INLINE_OUTPUT_LIMIT = 256 * 1024;

/** What an event holds instead of a large output. */
export type BlobRef = { readonly $blob: Digest; readonly bytes: number };

export function isBlobRef(value: unknown): value is BlobRef {
  return typeof value === "object" && value !== null && isDigest((value as { $blob?: unknown }).$blob) && Object.keys(value).length === 2;
}

/** The value to record for an output: itself (tagged) when small, else a reference to its stored blob. */
export async function recordable(output: unknown, blobs: BlobStore, redact?: (value: unknown) => unknown): Promise<unknown> {
  // Redacted before it can reach the blob store: the event's own redaction comes too late for a blob.
  const encoded = redact ? redact(encodeTagged(output)) : encodeTagged(output);
  const text = canonicalJson(encoded);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= INLINE_OUTPUT_LIMIT) return encoded;
  const digest = digestText(text);
  await blobs.put(digest, text);
  return { $blob: digest, bytes } satisfies BlobRef;
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
