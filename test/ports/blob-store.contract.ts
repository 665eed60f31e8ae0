import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/json/canonical-json.ts";
import { digestText } from "../../src/json/digest.ts";
import type { BlobOwner, BlobStore } from "../../src/ports/blob-store.ts";

/** Opens the store of one run (the wiring's `blobsFor`); the data behind stores may be shared. */
export type OpenBlobStore = (owner: BlobOwner) => BlobStore;

const nonce = () => crypto.randomUUID().replaceAll("-", "").slice(0, 12);

/** The {@link BlobStore} contract, run against every adapter. */
export function blobStoreContract(name: string, open: OpenBlobStore): void {
  describe(`BlobStore contract: ${name}`, () => {
    it("round-trips a blob under its digest; an unknown digest reads null", async () => {
      const store = open({ tenant: `t_${nonce()}`, runId: `run_${nonce()}` });
      const text = canonicalJson({ big: "x".repeat(1000), tag: nonce() });
      await store.put(digestText(text), text);
      expect(await store.get(digestText(text))).toBe(text);
      expect(await store.get(digestText(`${text} `))).toBeNull();
    });

    it("writing a digest twice keeps it", async () => {
      const store = open({ tenant: `t_${nonce()}`, runId: `run_${nonce()}` });
      const text = canonicalJson({ tag: nonce() });
      await store.put(digestText(text), text);
      await store.put(digestText(text), text);
      expect(await store.get(digestText(text))).toBe(text);
    });

    it("a run reads only its own blobs: another tenant's, or another run's of its tenant, read null", async () => {
      const tenant = `t_${nonce()}`;
      const owner = { tenant, runId: `run_${nonce()}` };
      const text = canonicalJson({ secret: nonce() });
      await open(owner).put(digestText(text), text);
      expect(await open(owner).get(digestText(text))).toBe(text);
      expect(await open({ tenant: `other_${nonce()}`, runId: owner.runId }).get(digestText(text))).toBeNull();
      expect(await open({ tenant, runId: `run_${nonce()}` }).get(digestText(text))).toBeNull();
    });
  });
}
