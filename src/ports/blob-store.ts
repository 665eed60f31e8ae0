import type { Digest } from "../identity/digest.ts";

/**
 * Content-addressed storage for large step outputs: events carry `{ "$blob": digest, bytes }`
 * instead of the value. `get` verifies the digest, so a corrupted blob is refused, not used.
 */
export interface BlobStore {
  put(digest: Digest, text: string): Promise<void>;
  get(digest: Digest): Promise<string | null>;
}
