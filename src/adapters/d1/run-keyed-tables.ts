import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

/** A D1 table that holds rows of one run: deleting a run deletes its rows here. */
export type RunKeyedTable = { readonly name: string; readonly tenantColumn: string; readonly runIdColumn: string };

/** Tables that name a run but are not purged with it, and why. */
export const RUN_KEYED_EXEMPT: Readonly<Record<string, string>> = {
  run_tombstones: "what is left of a deleted run: keeps its id from being reused",
};

/**
 * Every table of the D1 schema with a `run_id` and a `tenant` column, read from the drizzle schema
 * itself: a table added later that keys rows by run is purged with the run without anyone
 * remembering to list it (test/adapters/d1/run-keyed-tables.test.ts checks no run column escapes).
 * The run index (`runs`) comes last: while it stands, a resumed purge can still find the run.
 */
export function runKeyedTables(): RunKeyedTable[] {
  const found: RunKeyedTable[] = [];
  for (const value of Object.values(schema)) {
    if (!isTable(value)) continue;
    const config = getTableConfig(value);
    if (Object.hasOwn(RUN_KEYED_EXEMPT, config.name)) continue;
    const names = config.columns.map((c) => c.name);
    if (names.includes("run_id") && names.includes("tenant"))
      found.push({ name: config.name, tenantColumn: "tenant", runIdColumn: "run_id" });
  }
  return found.sort((a, b) => Number(a.name === "runs") - Number(b.name === "runs"));
}

function isTable(value: unknown): value is SQLiteTable {
  if (typeof value !== "object" || value === null) return false;
  try {
    return typeof getTableConfig(value as SQLiteTable).name === "string";
  } catch {
    return false;
  }
}
