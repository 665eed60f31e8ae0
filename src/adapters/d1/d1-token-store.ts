import { and, desc, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { isTokenScope, type NewToken, type TokenRecord, type TokenStore } from "../../ports/token-store.ts";
import { apiTokens } from "./schema.ts";

type Row = typeof apiTokens.$inferSelect;

/** The D1 adapter of {@link TokenStore}. */
export class D1TokenStore implements TokenStore {
  private readonly db;
  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async put(token: NewToken): Promise<void> {
    await this.db.insert(apiTokens).values({
      tokenHash: token.tokenHash,
      id: token.id,
      tenant: token.tenant,
      label: token.label,
      scopes: token.scopes.join(" "),
      createdAt: token.createdAt,
      expiresAt: token.expiresAt,
    });
  }

  async byHash(tokenHash: string): Promise<TokenRecord | null> {
    const row = await this.db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).get();
    return row ? record(row) : null;
  }

  async list(tenant: string): Promise<TokenRecord[]> {
    const rows = await this.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.tenant, tenant), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
      .all();
    return rows.map(record);
  }

  async revoke(tenant: string | null, id: string, at: number): Promise<TokenRecord | null> {
    // One conditional UPDATE: two concurrent revocations can't both report success.
    const row = await this.db
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.id, id), tenant === null ? undefined : eq(apiTokens.tenant, tenant), isNull(apiTokens.revokedAt)))
      .returning()
      .get();
    return row ? record(row) : null;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id));
  }
}

function record(row: Row): TokenRecord {
  return {
    id: row.id ?? `tok_${row.tokenHash.slice(7, 23)}`,
    tokenHash: row.tokenHash,
    tenant: row.tenant,
    label: row.label,
    // An unknown word (a scope from a newer Worker) grants nothing here.
    scopes: row.scopes.split(" ").filter(isTokenScope),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}
