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
      "definition_approval_audit",
      "definition_approvals",
      "memory_files",
      "planner_manifests",
      "run_links",
      "run_tags",
      "run_tombstones",
      "runs",
      "secrets",
      "tenant_retention",
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

  it("0010 backfills wait_reason = 'trigger' on runs left waiting without one (sections indexed before 0008), nothing else", async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0010_"));
    expect(migration?.name).toBe("0010_backfill_wait_reason.sql");
    const insert =
      "INSERT INTO runs (tenant, run_id, workflow_id, status, wait_reason, trigger_kind, created_at, updated_at) VALUES (?, ?, 'w', ?, ?, 'http', 1, 1)";
    const rows: [string, string, string | null][] = [
      ["run_section_old", "waiting", null],
      ["run_approval", "waiting", "approval"],
      ["run_running", "running", null],
    ];
    for (const [runId, status, reason] of rows) await env.DB.prepare(insert).bind("t_backfill", runId, status, reason).run();
    for (const query of migration?.queries ?? []) await env.DB.prepare(query).run();
    const { results } = await env.DB.prepare("SELECT run_id, wait_reason FROM runs WHERE tenant = 't_backfill' ORDER BY run_id").all();
    expect(results).toEqual([
      { run_id: "run_approval", wait_reason: "approval" },
      { run_id: "run_running", wait_reason: null },
      { run_id: "run_section_old", wait_reason: "trigger" },
    ]);
  });
});
