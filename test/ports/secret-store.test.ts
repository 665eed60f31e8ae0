import { env } from "cloudflare:workers";
import { D1SealedRows } from "../../src/adapters/d1/d1-sealed-rows.ts";
import { MemorySealedRows } from "../../src/adapters/memory/memory-sealed-rows.ts";
import { secretStoreContract } from "./secret-store.contract.ts";

secretStoreContract("memory rows", () => new MemorySealedRows());
secretStoreContract("D1 rows", () => new D1SealedRows(env.DB));
