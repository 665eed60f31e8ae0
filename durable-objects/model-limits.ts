import type { ModelPermit } from "../src/ports/model-limiter.ts";
import type { ModelLimits } from "../src/sdk/model.ts";

/** A minute: the window of `requestsPerMinute` and `tokensPerMinute`. */
const MINUTE_MS = 60_000;
/** How soon a call refused for `concurrent` asks again (no call's end is known in advance). */
const CONCURRENT_RETRY_MS = 50;

/**
 * One (tenant, provider, model)'s shared limits over the limiter object's SQLite
 * (durable-objects/flow-limiter.ts): calls in flight (leased), the last minute's calls and tokens,
 * and a pause a provider's `Retry-After` set. Every function is one synchronous SQL turn.
 */
export class ModelLimitTables {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS model_calls (call_key TEXT PRIMARY KEY, at INTEGER NOT NULL, lease_until INTEGER, tokens INTEGER NOT NULL DEFAULT 0)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS model_pause (id INTEGER PRIMARY KEY CHECK (id = 1), until INTEGER NOT NULL)");
  }

  acquire(callKey: string, limits: ModelLimits, leaseMs: number, now: number): ModelPermit {
    this.sql.exec("DELETE FROM model_calls WHERE at < ? AND lease_until IS NULL", now - MINUTE_MS);
    this.sql.exec("UPDATE model_calls SET lease_until = NULL WHERE lease_until <= ?", now);
    if (this.one("SELECT COUNT(*) AS n FROM model_calls WHERE call_key = ? AND lease_until IS NOT NULL", callKey) > 0)
      return { granted: true };
    const paused = this.one("SELECT COALESCE(MAX(until), 0) AS n FROM model_pause");
    if (paused > now) return { granted: false, retryAt: paused };
    const inFlight = this.one("SELECT COUNT(*) AS n FROM model_calls WHERE lease_until IS NOT NULL");
    if (limits.concurrent !== undefined && inFlight >= limits.concurrent) return { granted: false, retryAt: now + CONCURRENT_RETRY_MS };
    const since = now - MINUTE_MS;
    const oldest = this.one("SELECT COALESCE(MIN(at), 0) AS n FROM model_calls WHERE at >= ?", since);
    if (
      limits.requestsPerMinute !== undefined &&
      this.one("SELECT COUNT(*) AS n FROM model_calls WHERE at >= ?", since) >= limits.requestsPerMinute
    )
      return { granted: false, retryAt: oldest + MINUTE_MS };
    if (
      limits.tokensPerMinute !== undefined &&
      this.one("SELECT COALESCE(SUM(tokens), 0) AS n FROM model_calls WHERE at >= ?", since) >= limits.tokensPerMinute
    )
      return { granted: false, retryAt: oldest + MINUTE_MS };
    this.sql.exec(
      "INSERT INTO model_calls (call_key, at, lease_until) VALUES (?, ?, ?) ON CONFLICT(call_key) DO UPDATE SET lease_until = excluded.lease_until",
      callKey,
      now,
      now + leaseMs,
    );
    return { granted: true };
  }

  release(callKey: string, tokens: number): void {
    this.sql.exec("UPDATE model_calls SET lease_until = NULL, tokens = ? WHERE call_key = ?", Math.max(0, Math.round(tokens)), callKey);
  }

  pause(until: number): void {
    this.sql.exec(
      "INSERT INTO model_pause (id, until) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET until = MAX(until, excluded.until)",
      until,
    );
  }

  private one(query: string, ...bindings: SqlStorageValue[]): number {
    return Number(this.sql.exec<{ n: number }>(query, ...bindings).toArray()[0]?.n ?? 0);
  }
}
