import { START_WINDOW_MS, type StartAdmission, type StartLimits, type StartQuota } from "../../ports/start-quota.ts";

/**
 * The tenant's (?1) active runs: index rows being compiled or executed, mid-work waits included (a
 * run waiting for an approval or sleeping before a retry holds its slot, as it did when such runs
 * showed `running`; a paused run holds its slot too; sections waiting for a trigger don't count; runs queued by flow control
 * count, so queueing never lifts the tenant's ceiling), plus starts admitted in the current
 * window (?2) that are not in the index yet.
 */
const ACTIVE_COUNT = `((SELECT COUNT(*) FROM runs WHERE tenant = ?1 AND (status IN ('pending', 'compiling', 'running', 'paused')
    OR (status = 'waiting' AND wait_reason IN ('approval', 'sleep', 'concurrency', 'throttle', 'rate_limit'))))
  + COALESCE((SELECT in_flight FROM tenant_start_windows WHERE tenant = ?1 AND window_start >= ?2), 0))`;

/**
 * Gives back a window's in-flight slot (?1 tenant, ?2 window start) only while the run's (?3) index
 * row does not exist yet: sent in one batch before the write that creates the row, it settles the
 * start exactly once however many writers race to create that row.
 */
export const SETTLE_IF_UNINDEXED = `UPDATE tenant_start_windows SET in_flight = in_flight - 1
  WHERE tenant = ?1 AND window_start = ?2 AND in_flight > 0
    AND NOT EXISTS (SELECT 1 FROM runs WHERE tenant = ?1 AND run_id = ?3)`;

/**
 * The D1 adapter of {@link StartQuota}. One conditional upsert per start does both checks on the
 * D1 primary, where statements run one at a time, so both limits hold exactly under any
 * concurrency: it bumps the tenant's window row only while its starts are below the per-minute
 * limit (or moves it to a newer window), and only while the tenant's active runs — rows of the run
 * index (`runs_tenant_status`) plus the starts admitted but not yet indexed (`in_flight`) — are
 * below the concurrent limit. A run the API starts is settled by the run index's write that
 * creates its row ({@link SETTLE_IF_UNINDEXED}, in the same D1 transaction), so it counts once, in
 * `in_flight` or in the index, never both and never neither. `settle` is for a start whose row
 * existed before (an adopted anchor).
 *
 * Cost per start: one D1 write before the ack (admit); the settle rides on the run's first index
 * write after it. A refusal adds two reads (to say which limit). `in_flight` resets with the window,
 * so a start whose run object never wrote its row holds a slot for at most a minute.
 */
export class D1StartQuota implements StartQuota {
  private readonly db: D1Database;
  constructor(db: D1Database) {
    this.db = db;
  }

  async admit(tenant: string, now: number, limits: StartLimits): Promise<StartAdmission> {
    const windowStart = now - (now % START_WINDOW_MS);
    const row = await this.db
      .prepare(
        `INSERT INTO tenant_start_windows (tenant, window_start, starts, in_flight)
         SELECT ?1, ?2, 1, 1 WHERE ${ACTIVE_COUNT} < ?4
         ON CONFLICT (tenant) DO UPDATE SET
           starts = CASE WHEN excluded.window_start > tenant_start_windows.window_start THEN 1 ELSE tenant_start_windows.starts + 1 END,
           in_flight = CASE WHEN excluded.window_start > tenant_start_windows.window_start THEN 1 ELSE tenant_start_windows.in_flight + 1 END,
           window_start = MAX(tenant_start_windows.window_start, excluded.window_start)
         WHERE excluded.window_start > tenant_start_windows.window_start OR tenant_start_windows.starts < ?3
         RETURNING window_start`,
      )
      .bind(tenant, windowStart, limits.startsPerMinute, limits.concurrentRuns)
      .first<{ window_start: number }>();
    if (row) return { admitted: true, windowStart: row.window_start };
    // Refused: read which limit, only now (off the admitted path).
    const active = await this.db.prepare(`SELECT ${ACTIVE_COUNT} AS n`).bind(tenant, windowStart).first<{ n: number }>();
    if ((active?.n ?? 0) >= limits.concurrentRuns)
      return { admitted: false, limit: "concurrent_runs", max: limits.concurrentRuns, retryAfterSeconds: 5 };
    const window = await this.db
      .prepare("SELECT window_start FROM tenant_start_windows WHERE tenant = ?1")
      .bind(tenant)
      .first<{ window_start: number }>();
    const ends = (window?.window_start ?? windowStart) + START_WINDOW_MS;
    return {
      admitted: false,
      limit: "starts_per_minute",
      max: limits.startsPerMinute,
      retryAfterSeconds: Math.max(1, Math.ceil((ends - now) / 1000)),
    };
  }

  async settle(tenant: string, windowStart: number): Promise<void> {
    await this.db
      .prepare("UPDATE tenant_start_windows SET in_flight = in_flight - 1 WHERE tenant = ?1 AND window_start = ?2 AND in_flight > 0")
      .bind(tenant, windowStart)
      .run();
  }

  async release(tenant: string, windowStart: number): Promise<void> {
    await this.db
      .prepare(
        "UPDATE tenant_start_windows SET starts = MAX(starts - 1, 0), in_flight = MAX(in_flight - 1, 0) WHERE tenant = ?1 AND window_start = ?2",
      )
      .bind(tenant, windowStart)
      .run();
  }
}
