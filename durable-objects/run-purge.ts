/**
 * @module The storage half of deleting a run (docs/runs.md, "Retention and deletion"): the run
 * object's alarm and every byte it stores (the event log, fold checkpoints, `meta`, any key) go;
 * one `meta` row, `deleted`, stays, so a start with this run id is refused for ever.
 */

/** The `meta` key whose presence means the run was deleted (its value: deletedAt, epoch ms). */
export const DELETED_META_KEY = "deleted";

/**
 * Deletes the object's alarm and all its storage, then writes the marker, synced before it
 * answers. A crash in between leaves either everything (the purge runs again) or nothing but the
 * marker (done): never a half-purged run that still starts.
 */
export async function purgeRunStorage(ctx: DurableObjectState, deletedAt: number): Promise<void> {
  await ctx.storage.deleteAlarm();
  await ctx.storage.deleteAll();
  ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", DELETED_META_KEY, String(deletedAt));
  await ctx.storage.sync();
}
