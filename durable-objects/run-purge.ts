/**
 * @module The storage half of deleting a run (docs/runs.md, "Retention and deletion"): the run
 * object's alarm and every byte it stores (the event log, fold checkpoints, `meta`, any key) go;
 * one `meta` row, `deleted`, stays, so a start with this run id is refused for ever.
 */

/** The `meta` key whose presence means the run was deleted (its value: deletedAt, epoch ms). */
export const DELETED_META_KEY = "deleted";

/** The object's own SQLite tables (not the runtime's `_cf_` ones, nor SQLite's). */
const OWN_TABLES =
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%'";

/**
 * Deletes the object's alarm and all its storage and writes the marker, synced before it answers.
 * The wipe and the marker are one transaction: a crash leaves either the whole ended run (the purge
 * runs again) or nothing but the marker (done), never an empty object without the marker, which
 * would start a new run under the deleted run's id. (It was `deleteAll()` then the marker: a crash
 * between the two lost the marker; test/durable-objects/deletion-crash.test.ts.) `wiped` is the
 * crash tests' hook, called after the wipe and before the marker, inside the transaction.
 */
export async function purgeRunStorage(ctx: DurableObjectState, deletedAt: number, wiped: () => void = () => {}): Promise<void> {
  // An ended run's alarm has nothing to do: deleting it first is harmless if the rest never happens.
  await ctx.storage.deleteAlarm();
  const { sql, kv } = ctx.storage;
  ctx.storage.transactionSync(() => {
    const tables = sql
      .exec<{ name: string }>(OWN_TABLES)
      .toArray()
      .map((row) => row.name);
    for (const name of tables) sql.exec(`DROP TABLE "${name.replaceAll('"', '""')}"`);
    for (const [key] of [...kv.list()]) kv.delete(key);
    wiped();
    sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec("INSERT INTO meta (key, value) VALUES (?, ?)", DELETED_META_KEY, String(deletedAt));
  });
  await ctx.storage.sync();
}
