import type { Digest } from "../../json/digest.ts";
import type { BlobStore } from "../../ports/blob-store.ts";

/** In-memory {@link BlobStore}: one run's blobs (a world keeps one per run, like R2's prefixes). */
export class MemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, string>();
  async put(digest: Digest, text: string): Promise<void> {
    if (!this.blobs.has(digest)) this.blobs.set(digest, text);
  }
  async get(digest: Digest): Promise<string | null> {
    return this.blobs.get(digest) ?? null;
  }
}
