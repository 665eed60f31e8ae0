import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Digest } from "../../json/digest.ts";
import { RUN_STATUS_RANK, type RunCauseCode, type RunStatus } from "../../ports/run-events.ts";
import type { RunIndex, RunIndexEntry, RunPlacement, RunQuery, UpsertOptions } from "../../ports/run-index.ts";
import { isWaitReason, type WaitReason } from "../../ports/run-status.ts";
import { SETTLE_IF_UNINDEXED } from "./d1-start-quota.ts";
import { runs } from "./schema.ts";

type Row = typeof runs.$inferSelect;

/**
 * The stored status's rank, from the one table in ports/run-status.ts (a status this build does not
 * know ranks as ended: a newer writer's row is never overwritten by an older one).
 */
const RANK_CASES = sql.raw(
  Object.entries(RUN_STATUS_RANK)
    .map(([status, rank]) => `WHEN '${status}' THEN ${rank}`)
    .join(" "),
);
const MAX_RANK = sql.raw(String(Math.max(...Object.values(RUN_STATUS_RANK))));

/** The D1 adapter of {@link RunIndex}. */
export class D1RunIndex implements RunIndex {
  private readonly db;
  private readonly database: D1Database;

  constructor(database: D1Database) {
    this.database = database;
    this.db = drizzle(database);
  }

  async upsert(entry: RunIndexEntry, options: UpsertOptions = {}): Promise<void> {
    const write = this.upsertQuery(entry);
    if (options.settlesStartWindow === undefined) {
      await write;
      return;
    }
    // One transaction: the settle sees the row absent only for the write that then creates it.
    const { sql: text, params } = write.toSQL();
    await this.database.batch([
      this.database.prepare(SETTLE_IF_UNINDEXED).bind(entry.tenant, options.settlesStartWindow, entry.runId),
      this.database.prepare(text).bind(...params),
    ]);
  }

  private upsertQuery(entry: RunIndexEntry) {
    const rank = RUN_STATUS_RANK[entry.status];
    const waitReason = entry.status === "waiting" ? (entry.waitReason ?? null) : null;
    const row = { ...entry, waitReason, placement: JSON.stringify(entry.placement) };
    return this.db
      .insert(runs)
      .values(row)
      .onConflictDoUpdate({
        target: [runs.tenant, runs.runId],
        set: {
          status: entry.status,
          waitReason,
          definitionHash: sql`coalesce(${entry.definitionHash}, ${runs.definitionHash})`,
          versionId: sql`coalesce(${entry.versionId}, ${runs.versionId})`,
          causeCode: entry.causeCode,
          updatedAt: entry.updatedAt,
        },
        setWhere: sql`(CASE ${runs.status} ${RANK_CASES} ELSE ${MAX_RANK} END) <= ${rank}`,
      });
  }

  async get(tenant: string, runId: string): Promise<RunIndexEntry | null> {
    const row = await this.db
      .select()
      .from(runs)
      .where(and(eq(runs.tenant, tenant), eq(runs.runId, runId)))
      .get();
    return row ? toEntry(row) : null;
  }

  async list(query: RunQuery): Promise<RunIndexEntry[]> {
    const conditions = [eq(runs.tenant, query.tenant)];
    if (query.workflowId) conditions.push(eq(runs.workflowId, query.workflowId));
    if (query.status) conditions.push(eq(runs.status, query.status));
    if (query.waitReason) conditions.push(eq(runs.status, "waiting"), eq(runs.waitReason, query.waitReason));
    if (query.before) {
      const { createdAt, runId } = query.before;
      conditions.push(
        or(lt(runs.createdAt, createdAt), and(eq(runs.createdAt, createdAt), lt(runs.runId, runId))) as ReturnType<typeof eq>,
      );
    }
    const rows = await this.db
      .select()
      .from(runs)
      .where(and(...conditions))
      .orderBy(desc(runs.createdAt), desc(runs.runId))
      .limit(query.limit)
      .all();
    return rows.map(toEntry);
  }

  async findAnchor(runId: string): Promise<RunIndexEntry | null> {
    const row = await this.db
      .select()
      .from(runs)
      .where(and(eq(runs.runId, runId), eq(runs.status, "minted")))
      .get();
    return row ? toEntry(row) : null;
  }

  claimAnchor(tenant: string, runId: string, at: number): Promise<boolean> {
    return this.moveAnchor(tenant, runId, "pending", at);
  }

  cancelAnchor(tenant: string, runId: string, at: number): Promise<boolean> {
    return this.moveAnchor(tenant, runId, "cancelled", at);
  }

  private async moveAnchor(tenant: string, runId: string, status: RunStatus, at: number): Promise<boolean> {
    const result = await this.db
      .update(runs)
      .set({ status, updatedAt: at })
      .where(and(eq(runs.tenant, tenant), eq(runs.runId, runId), eq(runs.status, "minted")))
      .run();
    return result.meta.changes === 1;
  }

  async tenantUsesVersion(tenant: string, versionId: string): Promise<boolean> {
    const row = await this.db
      .select({ runId: runs.runId })
      .from(runs)
      .where(and(eq(runs.tenant, tenant), eq(runs.versionId, versionId)))
      .limit(1)
      .get();
    return row !== undefined;
  }
}

function toEntry(row: Row): RunIndexEntry {
  return {
    tenant: row.tenant,
    runId: row.runId,
    workflowId: row.workflowId,
    status: row.status as RunStatus,
    waitReason: isWaitReason(row.waitReason ?? "") ? (row.waitReason as WaitReason) : null,
    triggerKind: row.triggerKind,
    definitionHash: row.definitionHash as Digest | null,
    versionId: row.versionId,
    causeCode: row.causeCode as RunCauseCode | null,
    placement: JSON.parse(row.placement) as RunPlacement,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
