import { and, asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { ExpiredRun, RunDeletions, RunTombstone } from "../../ports/run-deletions.ts";
import type { RunPlacement } from "../../ports/run-index.ts";
import { ENDED_STATUSES } from "../../ports/run-status.ts";
import { runKeyedTables } from "./run-keyed-tables.ts";
import { runTombstones, tenantRetention } from "./schema.ts";

const DAY_MS = 86_400_000;
const ENDED_SQL = ENDED_STATUSES.map((s) => `'${s}'`).join(", ");

/** The D1 adapter of {@link RunDeletions}: tombstones, the purge of run-keyed rows, retention overrides. */
export class D1RunDeletions implements RunDeletions {
  private readonly db;
  private readonly database: D1Database;
  constructor(database: D1Database) {
    this.database = database;
    this.db = drizzle(database);
  }

  async tombstone(tenant: string, runId: string): Promise<RunTombstone | null> {
    const row = await this.db
      .select()
      .from(runTombstones)
      .where(and(eq(runTombstones.tenant, tenant), eq(runTombstones.runId, runId)))
      .get();
    return row ? toTombstone(row) : null;
  }

  async begin(tombstone: Omit<RunTombstone, "state">): Promise<RunTombstone> {
    await this.db
      .insert(runTombstones)
      .values({ ...tombstone, placement: JSON.stringify(tombstone.placement), state: "pending" })
      .onConflictDoNothing()
      .run();
    return (await this.tombstone(tombstone.tenant, tombstone.runId)) ?? { ...tombstone, state: "pending" };
  }

  async purgeRows(tenant: string, runId: string): Promise<void> {
    // One batch: D1 runs it as one transaction, the index row last.
    const statements = runKeyedTables().map((t) =>
      this.database.prepare(`DELETE FROM "${t.name}" WHERE "${t.tenantColumn}" = ?1 AND "${t.runIdColumn}" = ?2`).bind(tenant, runId),
    );
    if (statements.length > 0) await this.database.batch(statements);
  }

  async finish(tenant: string, runId: string): Promise<void> {
    await this.db
      .update(runTombstones)
      .set({ state: "done" })
      .where(and(eq(runTombstones.tenant, tenant), eq(runTombstones.runId, runId)))
      .run();
  }

  async pending(limit: number): Promise<RunTombstone[]> {
    const rows = await this.db
      .select()
      .from(runTombstones)
      .where(eq(runTombstones.state, "pending"))
      .orderBy(asc(runTombstones.deletedAt))
      .limit(limit)
      .all();
    return rows.map(toTombstone);
  }

  async expired(query: { readonly defaultDays: number | null; readonly now: number; readonly limit: number }): Promise<ExpiredRun[]> {
    // A tenant's override wins (null there: keep forever); else the Worker's default, if any.
    const sql = `SELECT r.tenant AS tenant, r.run_id AS runId FROM runs r LEFT JOIN tenant_retention t ON t.tenant = r.tenant
      WHERE r.status IN (${ENDED_SQL})
        AND r.updated_at < ?1 - (CASE WHEN t.tenant IS NULL THEN ?2 ELSE t.days END) * ${DAY_MS}
      ORDER BY r.updated_at LIMIT ?3`;
    const { results } = await this.database.prepare(sql).bind(query.now, query.defaultDays, query.limit).all<ExpiredRun>();
    return results;
  }

  async retention(tenant: string): Promise<number | null | undefined> {
    const row = await this.db.select().from(tenantRetention).where(eq(tenantRetention.tenant, tenant)).get();
    return row ? row.days : undefined;
  }

  async setRetention(tenant: string, days: number | null | undefined, at: number): Promise<void> {
    if (days === undefined) {
      await this.db.delete(tenantRetention).where(eq(tenantRetention.tenant, tenant)).run();
      return;
    }
    await this.db
      .insert(tenantRetention)
      .values({ tenant, days, updatedAt: at })
      .onConflictDoUpdate({ target: tenantRetention.tenant, set: { days, updatedAt: at } })
      .run();
  }
}

function toTombstone(row: typeof runTombstones.$inferSelect): RunTombstone {
  return {
    tenant: row.tenant,
    runId: row.runId,
    workflowId: row.workflowId,
    placement: JSON.parse(row.placement) as RunPlacement,
    state: row.state === "done" ? "done" : "pending",
    by: row.by,
    deletedAt: row.deletedAt,
  };
}
