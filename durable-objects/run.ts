import { DurableObject } from "cloudflare:workers";

/**
 * One run = one Durable Object (DESIGN.md, "Durability in a Durable Object"). Its SQLite holds the
 * run's append-only event log. The foundation declares the class and its storage; the drive loop,
 * RPC surface and replay arrive with the durable-runs issue.
 */
export class RunObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)",
      );
    });
  }

  /** Number of events in this run's log (0 until the durable-runs issue appends any). */
  async eventCount(): Promise<number> {
    const row = this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM events").one();
    return row.n;
  }
}
