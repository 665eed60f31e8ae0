import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { runRetention } from "../../src/triggers/retention.ts";
import { overrideWiring, wire } from "../../src/wiring.ts";
import { call, tenantToken } from "../api/support/api-call.ts";

/**
 * Retention from the cron: a tenant's override set through the admin API, ended runs older than
 * it deleted (the clock is injected, 31 days on), live runs and younger tenants' runs kept, and one
 * JSON log line with the counts.
 */
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const ADMIN = "test-admin-token";
const DAY = 86_400_000;
const INPUT = { ticketId: "T-31", transcript: "Old news." };

afterEach(() => {
  overrideWiring({});
  vi.restoreAllMocks();
});

async function endedRun(token: string): Promise<string> {
  const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=30", { token, body: { input: INPUT } });
  expect(r.status, r.text).toBe(200);
  return (r.json.run as { runId: string }).runId;
}

const fresh = () => `ret${crypto.randomUUID().slice(0, 8)}`;

describe("retention", () => {
  it("is set per tenant through the admin API, like tokens: the admin token for any tenant, an admin-scoped token for its own", async () => {
    const tenant = fresh();
    expect((await call("GET", `/v1/tenants/${tenant}/retention`, { token: ADMIN })).json).toEqual({
      tenant,
      days: null,
      source: "default",
    });
    const set = await call("PUT", `/v1/tenants/${tenant}/retention`, { token: ADMIN, body: { days: 30 } });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toEqual({ tenant, days: 30, source: "tenant" });
    const own = await call("POST", "/v1/tokens", { token: ADMIN, body: { tenant, scopes: ["admin"] } });
    const mine = own.json.token as string;
    expect((await call("PUT", `/v1/tenants/${tenant}/retention`, { token: mine, body: { days: null } })).json).toEqual({
      tenant,
      days: null,
      source: "tenant",
    });
    expect((await call("GET", `/v1/tenants/${fresh()}/retention`, { token: mine })).json.error?.code).toBe("tenant_forbidden");
    const reader = await call("POST", "/v1/tokens", { token: ADMIN, body: { tenant, scopes: ["runs:read"] } });
    expect((await call("GET", `/v1/tenants/${tenant}/retention`, { token: reader.json.token as string })).status).toBe(403);
    expect((await call("PUT", `/v1/tenants/${tenant}/retention`, { token: ADMIN, body: { days: 0 } })).status).toBe(400);
    expect((await call("PUT", `/v1/tenants/${tenant}/retention`, { token: ADMIN, body: { default: true } })).json.source).toBe("default");
  });

  it("the cron deletes a tenant's ended runs older than its retention, keeps live and younger ones, and logs one JSON line", async () => {
    overrideWiring({ models: OFFLINE });
    const old = fresh();
    const young = fresh();
    const oldToken = await tenantToken(old);
    const youngToken = await tenantToken(young);
    const expired = [await endedRun(oldToken), await endedRun(oldToken)];
    const kept = await endedRun(youngToken);
    const anchor = await call("POST", "/v1/workflows/support.summarize-ticket/anchors", { token: oldToken });
    const live = (anchor.json.run as { runId: string }).runId;
    await call("PUT", `/v1/tenants/${old}/retention`, { token: ADMIN, body: { days: 30 } });
    await call("PUT", `/v1/tenants/${young}/retention`, { token: ADMIN, body: { days: 60 } });

    const now = Date.now() + 31 * DAY;
    overrideWiring({ models: OFFLINE, clock: { now: () => now } });
    const logs = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const report = await runRetention(env);
    expect(report?.deleted).toBeGreaterThanOrEqual(2);
    const line = logs.mock.calls.map((c) => String(c[0])).find((l) => l.includes('"little.retention"'));
    expect(JSON.parse(line as string)).toMatchObject({ kind: "little.retention", deleted: report?.deleted, failed: report?.failed });

    for (const id of expired) expect((await call("GET", `/v1/runs/${id}`, { token: oldToken })).json.error?.code).toBe("run_deleted");
    expect((await call("GET", `/v1/runs/${live}`, { token: oldToken })).status).toBe(200);
    expect((await call("GET", `/v1/runs/${kept}`, { token: youngToken })).status).toBe(200);
    const by = await env.DB.prepare("SELECT DISTINCT by FROM run_tombstones WHERE tenant = ?").bind(old).all<{ by: string }>();
    expect(by.results).toEqual([{ by: "retention" }]);
  });

  it("LITTLE_RETENTION_DAYS applies to tenants without an override; an override of null keeps a tenant's runs for ever", async () => {
    overrideWiring({ models: OFFLINE });
    const plain = fresh();
    const forever = fresh();
    const plainRun = await endedRun(await tenantToken(plain));
    const foreverRun = await endedRun(await tenantToken(forever));
    await call("PUT", `/v1/tenants/${forever}/retention`, { token: ADMIN, body: { days: null } });
    // Read only: a real sweep with a default would delete other test files' runs in this shared database.
    const found = await wire(env).deletions.expired({ defaultDays: 7, now: Date.now() + 8 * DAY, limit: 100_000 });
    const ids = new Set(found.map((r) => `${r.tenant}:${r.runId}`));
    expect(ids.has(`${plain}:${plainRun}`)).toBe(true);
    expect(ids.has(`${forever}:${foreverRun}`)).toBe(false);
    const none = await wire(env).deletions.expired({ defaultDays: null, now: Date.now() + 8 * DAY, limit: 100_000 });
    expect(none.some((r) => r.tenant === plain)).toBe(false);
  });
});
