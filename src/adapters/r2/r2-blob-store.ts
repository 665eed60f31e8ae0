import type { Digest } from "../../identity/digest.ts";
import type { BlobStore } from "../../ports/blob-store.ts";

/** The R2 adapter of {@link BlobStore}: one object per digest under `outputs/`. (`wrangler dev` keeps R2 locally.) */
export class R2BlobStore implements BlobStore {
  private readonly bucket: R2Bucket;
  constructor(bucket: R2Bucket) {
    this.bucket = bucket;
  }
  async put(digest: Digest, text: string): Promise<void> {
    await this.bucket.put(`outputs/${digest.slice("sha256:".length)}`, text, { httpMetadata: { contentType: "application/json" } });
  }
  async get(digest: Digest): Promise<string | null> {
    const object = await this.bucket.get(`outputs/${digest.slice("sha256:".length)}`);
    return object ? object.text() : null;
  }
}
