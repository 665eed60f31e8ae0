import type { Digest } from "../json/digest.ts";

/** The run a blob belongs to: the only run whose log may reference it, in its tenant. */
export type BlobOwner = { readonly tenant: string; readonly runId: string };

/**
 * One run's content-addressed storage for its large outputs: events carry `{ "$blob": digest,
 * bytes }` instead of the value. A store is opened for one {@link BlobOwner} (the wiring does it,
 * from the run's own tenant and id) and can neither read nor probe another run's blobs, so a
 * digest learned elsewhere is worth nothing. The caller verifies a read's digest, so a corrupted
 * blob is refused, not used.
 */
export interface BlobStore {
  put(digest: Digest, text: string): Promise<void>;
  /** The blob this run stored under `digest`; null when this run stored none (whoever else did). */
  get(digest: Digest): Promise<string | null>;
}

/** Deletes every blob a run stored (all keys under the run), answering how many: part of deleting the run. */
export type RunBlobPurger = (owner: BlobOwner) => Promise<number>;
