import { and, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SecretEntry } from "../../ports/secret-store.ts";
import type { Sealed } from "../secrets/aes-gcm-cipher.ts";
import type { SealedRows } from "../secrets/sealed-secret-store.ts";
import { secrets } from "./schema.ts";

/** Sealed secret rows in D1 (`secrets`): ciphertext, IV and key id; never plaintext. */
export class D1SealedRows implements SealedRows {
  private readonly db;

  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async upsert(tenant: string, name: string, sealed: Sealed, at: number): Promise<void> {
    await this.db
      .insert(secrets)
      .values({ tenant, name, ...sealed, updatedAt: at })
      .onConflictDoUpdate({ target: [secrets.tenant, secrets.name], set: { ...sealed, updatedAt: at } });
  }

  async remove(tenant: string, name: string): Promise<boolean> {
    const result = await this.db
      .delete(secrets)
      .where(and(eq(secrets.tenant, tenant), eq(secrets.name, name)))
      .run();
    return result.meta.changes > 0;
  }

  async list(tenant: string): Promise<SecretEntry[]> {
    const rows = await this.db
      .select({ name: secrets.name, updatedAt: secrets.updatedAt })
      .from(secrets)
      .where(eq(secrets.tenant, tenant))
      .orderBy(secrets.name)
      .all();
    return rows;
  }

  async get(tenant: string, names: readonly string[]): Promise<Map<string, Sealed>> {
    const rows = await this.db
      .select()
      .from(secrets)
      .where(and(eq(secrets.tenant, tenant), inArray(secrets.name, [...names])))
      .all();
    return new Map(rows.map((r) => [r.name, { ciphertext: r.ciphertext, iv: r.iv, keyId: r.keyId }]));
  }
}
