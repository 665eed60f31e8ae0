import type { ContentfulStatusCode } from "hono/utils/http-status";
import { statusOf } from "./error-status.ts";

const NO_SUCH_TABLE = /no such table: ([A-Za-z0-9_]+)/;

/**
 * A D1 query that failed because a table is missing: the database's migrations were never applied
 * (a fresh `--persist-to`, or a `wrangler dev -c caller -c app` whose app reads another state
 * directory than the one migrated). Named, with the command that fixes it, so it is not a bare
 * `internal_error` 500 with the cause visible nowhere. Undefined for any other error.
 */
export function missingMigration(
  error: unknown,
): { code: "database_not_migrated"; message: string; status: ContentfulStatusCode } | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const table = NO_SUCH_TABLE.exec(e.message)?.[1];
    if (table === undefined) continue;
    return {
      code: "database_not_migrated",
      status: statusOf("database_not_migrated"),
      message: `The D1 database has no table "${table}": its migrations have not been applied. Locally: npx wrangler d1 migrations apply DB --local (with the --persist-to wrangler dev uses; npm run dev does it for you); deployed: npx wrangler d1 migrations apply DB --remote.`,
    };
  }
  return undefined;
}
