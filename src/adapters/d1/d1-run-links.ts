import { and, asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { RunLink, RunLinks, RunRelation } from "../../ports/run-links.ts";
import { runLinks } from "./schema.ts";

/** The D1 adapter of {@link RunLinks}: one row per (tenant, source, new run), insert-if-absent. */
export class D1RunLinks implements RunLinks {
  private readonly db;
  constructor(database: D1Database) {
    this.db = drizzle(database);
  }

  async add(link: RunLink): Promise<void> {
    await this.db.insert(runLinks).values(link).onConflictDoNothing();
  }

  async of(tenant: string, sourceRunId: string): Promise<RunLink[]> {
    const rows = await this.db
      .select()
      .from(runLinks)
      .where(and(eq(runLinks.tenant, tenant), eq(runLinks.sourceRunId, sourceRunId)))
      .orderBy(asc(runLinks.createdAt), asc(runLinks.runId))
      .all();
    return rows.map((r) => ({ ...r, relation: r.relation as RunRelation }));
  }
}
