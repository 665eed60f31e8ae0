import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toRpcError } from "../../src/api/rpc-error.ts";

const auth = { authorization: "Bearer test-dev-token" };

describe("a D1 database whose migrations were not applied", () => {
  it("answers 503 database_not_migrated naming the table and the command, not a bare internal_error", async () => {
    // The real Worker over the real D1, with the runs table taken away as an unmigrated database has none.
    await env.DB.exec("ALTER TABLE runs RENAME TO runs_hidden_by_test");
    let res: Response;
    try {
      res = await exports.default.fetch("http://little.test/v1/runs", { headers: auth });
    } finally {
      await env.DB.exec("ALTER TABLE runs_hidden_by_test RENAME TO runs");
    }
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("database_not_migrated");
    expect(body.error.message).toContain('no table "runs"');
    expect(body.error.message).toContain("wrangler d1 migrations apply DB --local");
    expect((await exports.default.fetch("http://little.test/v1/runs", { headers: auth })).status).toBe(200);
  });

  it("reaches a service-binding caller as the same named error (LittleRpcError code and status)", () => {
    const d1 = new Error("D1_ERROR: no such table: runs: SQLITE_ERROR");
    const rpc = toRpcError(new Error("index write failed", { cause: d1 }));
    expect(rpc).toMatchObject({ name: "LittleRpcError", code: "database_not_migrated", status: 503 });
    expect(toRpcError(new Error("something else")).code).toBe("internal_error");
  });
});
