/**
 * `little token create|list|revoke` against a real `wrangler dev` (issue 15, item 7): a token
 * minted with `--scopes runs:read --expires-in 1h` reads runs, is refused a start with 403
 * `insufficient_scope`, is listed without its secret, and after `little token revoke` answers 401
 * `token_revoked`.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
let dev: WranglerDev;

type Result = { code: number; stdout: string; stderr: string };

function little(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, LITTLE_URL: dev.url, LITTLE_TOKEN: dev.devToken, LITTLE_ADMIN_TOKEN: "", NO_COLOR: "1", ...env } },
      (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dev = await startWranglerDev({});
});
afterAll(async () => {
  await dev?.dispose();
});

describe("little token against a real Worker", () => {
  it("create with scopes and expiry, list, refused write, revoke", async () => {
    const admin = { LITTLE_ADMIN_TOKEN: dev.adminToken };
    const made = await little(
      ["token", "create", "--tenant", "clitok", "--label", "dash", "--scopes", "runs:read", "--expires-in", "1h", "--json"],
      admin,
    );
    expect(made.code, made.stderr).toBe(0);
    const reader = JSON.parse(made.stdout) as { token: string; id: string; scopes: string[]; expiresAt: number; createdAt: number };
    expect(reader.scopes).toEqual(["runs:read"]);
    expect(reader.expiresAt - reader.createdAt).toBe(3_600_000);
    const ops = JSON.parse((await little(["token", "create", "--tenant", "clitok", "--scopes", "admin", "--json"], admin)).stdout) as {
      token: string;
      id: string;
    };

    expect((await little(["runs"], { LITTLE_TOKEN: reader.token })).code).toBe(0);
    const start = await little(["run", SEED_WORKFLOW, "--input", JSON.stringify(INPUT), "--json"], { LITTLE_TOKEN: reader.token });
    expect(start.code).toBe(3);
    expect(start.stderr).toContain("insufficient_scope");
    expect(start.stderr).toContain("runs:write");

    const listed = await little(["token", "list"], { LITTLE_TOKEN: ops.token });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${reader.id}\\s+dash\\s+runs:read`));
    expect(listed.stdout).toContain(ops.id);
    expect(listed.stdout).not.toContain(reader.token);
    const byOperator = await little(["token", "list", "--tenant", "clitok", "--json"], admin);
    expect((JSON.parse(byOperator.stdout) as { tokens: unknown[] }).tokens).toHaveLength(2);

    const revoked = await little(["token", "revoke", reader.id], { LITTLE_TOKEN: ops.token });
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await little(["runs"], { LITTLE_TOKEN: reader.token });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain("token_revoked");
    const again = await little(["token", "revoke", reader.id], { LITTLE_TOKEN: ops.token });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("token_not_found");

    const bad = await little(["token", "create", "--tenant", "clitok", "--scopes", "runs:explode"], admin);
    expect(bad.code).toBe(2);
    expect((await little(["token", "create", "--tenant", "clitok", "--expires-in", "soon"], admin)).code).toBe(2);
  });
});
