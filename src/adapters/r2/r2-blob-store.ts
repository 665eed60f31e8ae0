import type { Digest } from "../../json/digest.ts";
import type { BlobOwner, BlobStore } from "../../ports/blob-store.ts";

/**
 * The R2 adapter of {@link BlobStore}, for one run: objects live under
 * `t/<tenant>/runs/<runId>/outputs/<sha256 hex>` (each segment URI-encoded, so no tenant or run id
 * can spell another's prefix), and carry their owner in custom metadata, which a read checks too.
 * (`wrangler dev` keeps R2 locally.)
 */
export class R2BlobStore implements BlobStore {
  private readonly bucket: R2Bucket;
  private readonly owner: BlobOwner;
  constructor(bucket: R2Bucket, owner: BlobOwner) {
    this.bucket = bucket;
    this.owner = owner;
  }
  async put(digest: Digest, text: string): Promise<void> {
    await this.bucket.put(blobKey(this.owner, digest), text, {
      httpMetadata: { contentType: "application/json" },
      customMetadata: { tenant: this.owner.tenant, runId: this.owner.runId },
    });
  }
  async get(digest: Digest): Promise<string | null> {
    const object = await this.bucket.get(blobKey(this.owner, digest));
    if (!object) return null;
    // Belt and braces: an object copied under this run's prefix from elsewhere is not this run's.
    const meta = object.customMetadata ?? {};
    if (meta.tenant !== this.owner.tenant || meta.runId !== this.owner.runId) return null;
    return object.text();
  }
}

/** Where one run's blob lives in the bucket. */
export function blobKey(owner: BlobOwner, digest: Digest): string {
  return `${runPrefix(owner)}outputs/${digest.slice("sha256:".length)}`;
}

/** Where every object of one run lives in the bucket: deleting the run deletes this prefix. */
export function runPrefix(owner: BlobOwner): string {
  return `t/${encodeURIComponent(owner.tenant)}/runs/${encodeURIComponent(owner.runId)}/`;
}

/** Deletes every object under the run's prefix, a listed page (up to 1,000 keys) per delete call; answers how many. */
export async function purgeRunBlobs(bucket: R2Bucket, owner: BlobOwner): Promise<number> {
  let deleted = 0;
  for (;;) {
    // Always the first page: what was deleted is gone, so the next listing starts where this one ended.
    const page = await bucket.list({ prefix: runPrefix(owner), limit: 1000 });
    if (page.objects.length === 0) return deleted;
    await bucket.delete(page.objects.map((o) => o.key));
    deleted += page.objects.length;
    if (!page.truncated) return deleted;
  }
}
