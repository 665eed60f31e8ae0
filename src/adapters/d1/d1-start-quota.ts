import { START_WINDOW_MS, type StartAdmission, type StartLimits, type StartQuota } from "../../ports/start-quota.ts";

/** Statuses that hold a concurrent-run slot: a run being compiled or executed. Waiting sections don't. */
const ACTIVE = "('pending', 'compiling', 'running')";

/**
 * The D1 adapter of {@link StartQuota}. One conditional upsert per start does both checks on the
 * D1 primary, where statements run one at a time, so the starts-per-minute counter is exact under
 * any concurrency: it bumps the tenant's window row only while below the limit (or moves it to a
 * newer window), and inserts the first row only while the tenant's active runs, counted in the run
 * index (`runs_tenant_status`), are below their limit. Cost: one D1 write per start, plus one read
 * on a refusal (to say which limit) and one write when a start is given back.
 *
 * The concurrent-run count is as exact as the run index: a run is counted once its object has
 * written its row, a few milliseconds after admission, so a burst of simultaneous starts can
 * overshoot the concurrent limit by the starts still in flight (never beyond the per-minute limit).
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
        `INSERT INTO tenant_start_windows (tenant, window_start, starts)
         SELECT ?1, ?2, 1 WHERE (SELECT COUNT(*) FROM runs WHERE tenant = ?1 AND status IN ${ACTIVE}) < ?4
         ON CONFLICT (tenant) DO UPDATE SET
           starts = CASE WHEN excluded.window_start > tenant_start_windows.window_start THEN 1 ELSE tenant_start_windows.starts + 1 END,
           window_start = MAX(tenant_start_windows.window_start, excluded.window_start)
         WHERE excluded.window_start > tenant_start_windows.window_start OR tenant_start_windows.starts < ?3
         RETURNING window_start`,
      )
      .bind(tenant, windowStart, limits.startsPerMinute, limits.concurrentRuns)
      .first<{ window_start: number }>();
    if (row) return { admitted: true, windowStart: row.window_start };
    // Refused: read which limit, only now (off the admitted path).
    const active = await this.db
      .prepare(`SELECT COUNT(*) AS n FROM runs WHERE tenant = ?1 AND status IN ${ACTIVE}`)
      .bind(tenant)
      .first<{ n: number }>();
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

  async release(tenant: string, windowStart: number): Promise<void> {
    await this.db
      .prepare("UPDATE tenant_start_windows SET starts = starts - 1 WHERE tenant = ?1 AND window_start = ?2 AND starts > 0")
      .bind(tenant, windowStart)
      .run();
  }
}
