import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { TokenStore } from "../../ports/token-store.ts";
import { apiTokens } from "./schema.ts";

/** The D1 adapter of {@link TokenStore}. */
export class D1TokenStore implements TokenStore {
  private readonly db;
  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async put(tokenHash: string, tenant: string, label: string | null, at: number): Promise<void> {
    await this.db.insert(apiTokens).values({ tokenHash, tenant, label, createdAt: at });
  }

  async tenantOf(tokenHash: string): Promise<string | null> {
    const row = await this.db.select({ tenant: apiTokens.tenant }).from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).get();
    return row?.tenant ?? null;
  }
}
