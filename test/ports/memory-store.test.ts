import { env } from "cloudflare:workers";
import { D1MemoryStore } from "../../src/adapters/d1/d1-memory-store.ts";
import { MemoryMemoryStore } from "../../src/adapters/memory/memory-memory-store.ts";
import { memoryStoreContract } from "./memory-store.contract.ts";

// The same contract, against every MemoryStore adapter.

memoryStoreContract("MemoryMemoryStore", () => new MemoryMemoryStore());

// D1 with migrations/ applied (test/setup/apply-migrations.ts); every test uses its own store ids.
memoryStoreContract("D1MemoryStore", () => new D1MemoryStore(env.DB));
