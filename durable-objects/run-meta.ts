/**
 * @module The run object's `meta` table (run id, tenant, the index repair mark, the OTLP cursor, the
 * deleted marker), read through a copy in memory: the object is its only writer (a new instance,
 * after an eviction or a crash, starts with an empty copy), and every RPC and alarm reads `runId`
 * and more, a SQLite statement each otherwise.
 */
export class RunMeta {
  private readonly cache = new Map<string, string | null>();
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  get(key: string): string | null {
    if (this.cache.has(key)) return this.cache.get(key) ?? null;
    const value = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
    this.cache.set(key, value);
    return value;
  }

  set(key: string, value: string): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value);
    this.cache.set(key, value);
  }

  delete(key: string): void {
    this.sql.exec("DELETE FROM meta WHERE key = ?", key);
    this.cache.set(key, null);
  }

  /** Forgets the copy (the storage under it was wiped: a purge). */
  forget(): void {
    this.cache.clear();
  }
}
