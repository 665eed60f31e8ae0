import { env } from "cloudflare:workers";
import { D1RunIndex } from "../../src/adapters/d1/d1-run-index.ts";
import { MemoryRunIndex } from "../../src/adapters/memory/memory-run-index.ts";
import { runIndexContract } from "./run-index.contract.ts";

// The same contract, against every RunIndex adapter.

runIndexContract("MemoryRunIndex", () => new MemoryRunIndex());

// D1 with migrations/ applied (test/setup/apply-migrations.ts); every test writes its own tenants.
runIndexContract("D1RunIndex", () => new D1RunIndex(env.DB));
