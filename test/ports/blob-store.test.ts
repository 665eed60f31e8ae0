import { env } from "cloudflare:workers";
import { MemoryBlobStore } from "../../src/adapters/memory/memory-blob-store.ts";
import { R2BlobStore } from "../../src/adapters/r2/r2-blob-store.ts";
import { blobStoreContract } from "./blob-store.contract.ts";

// The same contract, against every BlobStore adapter, each opened per run as the wiring does.

const memory = new Map<string, MemoryBlobStore>();
blobStoreContract("MemoryBlobStore", (owner) => {
  const key = JSON.stringify([owner.tenant, owner.runId]);
  const store = memory.get(key) ?? new MemoryBlobStore();
  memory.set(key, store);
  return store;
});

// R2 from wrangler.toml's BLOBS binding (local in the vitest plugin).
blobStoreContract("R2BlobStore", (owner) => new R2BlobStore(env.BLOBS, owner));
