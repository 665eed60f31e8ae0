import { env } from "cloudflare:workers";
import { D1VersionStore } from "../../src/adapters/d1/d1-version-store.ts";
import { MemoryVersionStore } from "../../src/adapters/memory/memory-version-store.ts";
import { versionStoreContract } from "./version-store.contract.ts";

// The same contract, against every VersionStore adapter.

versionStoreContract("MemoryVersionStore", () => new MemoryVersionStore());

// D1 with migrations/ applied (test/setup/apply-migrations.ts); every test writes its own keys.
versionStoreContract("D1VersionStore", () => new D1VersionStore(env.DB));
