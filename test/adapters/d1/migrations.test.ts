import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("D1 migrations (migrations/, applied with applyD1Migrations)", () => {
  it("create the version, definition, lock, manifest, run index, token, webhook delivery, memory, approval and secret tables", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'd1_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    ).all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual([
      "api_tokens",
      "compiler_locks",
      "definition_approvals",
      "memory_files",
      "planner_manifests",
      "runs",
      "secrets",
      "tenant_start_windows",
      "webhook_deliveries",
      "workflow_definitions",
      "workflow_versions",
    ]);
  });

  it("refuse a second version row with the same hash (versions are content-addressed)", async () => {
    const insert = "INSERT INTO workflow_versions (id, hash, canonicalizer, canonical_json, created_at) VALUES (?, ?, ?, ?, ?)";
    await env.DB.prepare(insert).bind("wfver_aaaaaaaaaaaaaaaa", "sha256:aa", "c", "{}", 1).run();
    await expect(env.DB.prepare(insert).bind("wfver_bbbbbbbbbbbbbbbb", "sha256:aa", "c", "{}", 2).run()).rejects.toThrow(/UNIQUE/);
  });
});
