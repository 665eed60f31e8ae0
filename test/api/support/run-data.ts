import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { RUN_KEYED_EXEMPT, runKeyedTables } from "../../../src/adapters/d1/run-keyed-tables.ts";
import * as schema from "../../../src/adapters/d1/schema.ts";
import { runPrefix } from "../../../src/adapters/r2/r2-blob-store.ts";
import { rawRunStub } from "../../support/drive.ts";

/** Everything one run left behind, place by place (docs/runs.md, "Retention and deletion"). */
export type RunData = {
  /** The run object's SQLite tables (but its empty bookkeeping) with their row counts, KV keys and alarm. */
  object: { tables: Record<string, number>; keys: number; alarm: number | null };
  /** R2 keys under the run's prefix. */
  blobs: string[];
  /** Rows keyed by the run, per D1 table. */
  rows: Record<string, number>;
};

/** Reads every place a run leaves data. */
export async function runData(tenant: string, runId: string): Promise<RunData> {
  const object = await runInDurableObject(rawRunStub(runId, tenant), async (_instance, state) => {
    const names = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%'",
      )
      .toArray()
      .map((r) => r.name);
    const tables: Record<string, number> = {};
    for (const name of names) tables[name] = state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`).one().n;
    return { tables, keys: (await state.storage.list()).size, alarm: await state.storage.getAlarm() };
  });
  const listed = await env.BLOBS.list({ prefix: runPrefix({ tenant, runId }) });
  const rows: Record<string, number> = {};
  for (const t of runKeyedTables())
    rows[t.name] =
      (
        await env.DB.prepare(`SELECT COUNT(*) AS n FROM "${t.name}" WHERE tenant = ? AND run_id = ?`)
          .bind(tenant, runId)
          .first<{ n: number }>()
      )?.n ?? 0;
  return { object, blobs: listed.objects.map((o) => o.key), rows };
}

/** The tables of the drizzle schema with a column that names a run, by table. */
export function schemaRunColumns(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const value of Object.values(schema)) {
    let config: ReturnType<typeof getTableConfig>;
    try {
      config = getTableConfig(value as SQLiteTable);
    } catch {
      continue;
    }
    if (typeof config?.name !== "string") continue;
    const columns = config.columns.map((c) => c.name).filter((c) => /(^|_)run(_|$)|run_id/.test(c));
    if (columns.length > 0) found[config.name] = columns;
  }
  return found;
}

/** The live D1 database's tables with a column that names a run (also catching tables a hand-written migration made). */
export async function databaseRunColumns(): Promise<Record<string, string[]>> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  const found: Record<string, string[]> = {};
  for (const { name } of results) {
    const info = await env.DB.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
    const columns = info.results.map((c) => c.name).filter((c) => /(^|_)run(_|$)|run_id/.test(c));
    if (columns.length > 0) found[name] = columns;
  }
  return found;
}

export { RUN_KEYED_EXEMPT, runKeyedTables };
