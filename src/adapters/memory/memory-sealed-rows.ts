import type { SecretEntry } from "../../ports/secret-store.ts";
import type { Sealed } from "../secrets/aes-gcm-cipher.ts";
import type { SealedRows } from "../secrets/sealed-secret-store.ts";

/** Sealed secret rows in memory, for unit tests and the in-memory world. */
export class MemorySealedRows implements SealedRows {
  private readonly rows = new Map<string, { tenant: string; name: string; sealed: Sealed; updatedAt: number }>();

  async upsert(tenant: string, name: string, sealed: Sealed, at: number): Promise<void> {
    this.rows.set(`${tenant}\u0000${name}`, { tenant, name, sealed: { ...sealed }, updatedAt: at });
  }
  async remove(tenant: string, name: string): Promise<boolean> {
    return this.rows.delete(`${tenant}\u0000${name}`);
  }
  async list(tenant: string): Promise<SecretEntry[]> {
    return [...this.rows.values()]
      .filter((r) => r.tenant === tenant)
      .map((r) => ({ name: r.name, updatedAt: r.updatedAt }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }
  async get(tenant: string, names: readonly string[]): Promise<Map<string, Sealed>> {
    const out = new Map<string, Sealed>();
    for (const name of names) {
      const row = this.rows.get(`${tenant}\u0000${name}`);
      if (row) out.set(name, { ...row.sealed });
    }
    return out;
  }
}
