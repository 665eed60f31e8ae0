import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ROUTE_SCOPES, routeAccess } from "../../../src/api/route-scopes.ts";
import { TOKEN_SCOPES, type TokenScope } from "../../../src/ports/token-store.ts";
import { type ApiAnswer, api } from "./support/api-call.ts";

// Issue 15, finding 7: tokens never expired, could not be listed or revoked, and every token could
// do everything. Through the Worker's real fetch handler and real D1: a revoked token answers 401
// `token_revoked` on its very next request, an expired one 401 `token_expired`, and every route of
// the OpenAPI document refuses a token without its scope with 403 `insufficient_scope` naming it,
// storing nothing.

const ADMIN = "test-admin-token";
const ORIGIN = "http://little.test";

type Minted = { token: string; id: string; scopes: TokenScope[]; expiresAt: number | null };

async function mint(tenant: string, extra: Record<string, unknown> = {}): Promise<Minted> {
  const r = await api("POST", "/v1/tokens", { token: ADMIN, body: JSON.stringify({ tenant, ...extra }) });
  expect(r.status, r.text).toBe(201);
  return r.json as unknown as Minted;
}

const expectRefusal = (r: ApiAnswer, status: number, code: string) => {
  expect({ status: r.status, code: r.code }, r.text).toEqual({ status, code });
};

/** Every operation of the served OpenAPI document as `METHOD /v1/path`. */
async function operations(): Promise<string[]> {
  const doc = (await api("GET", "/v1/openapi.json", { token: null })).json as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
}

/** A concrete URL for an OpenAPI path: parameters filled with ids that exist nowhere. */
const concrete = (path: string) =>
  path
    .replace("{hash}", `sha256:${"0".repeat(64)}`)
    .replace("{tokenId}", "tok_0000000000000000")
    .replace("{versionId}", "wfver_0000000000000000")
    .replace(/\{[^}]+\}/g, "nope");

/** An empty JSON body where the method takes one. */
const bodyFor = (method: string) => (method === "GET" || method === "DELETE" ? undefined : "{}");

describe("revocation and listing", () => {
  it("a revoked token answers 401 token_revoked on the next request, everywhere; the list never shows a secret", async () => {
    const admin = await mint("tok_rev", { scopes: ["admin"], label: "ops" });
    const reader = await mint("tok_rev", { scopes: ["runs:read"], label: "dashboard" });
    const other = await mint("tok_rev_other", { scopes: ["admin"] });
    expect(reader.id).toMatch(/^tok_[0-9a-f]{16}$/);
    expect((await api("GET", "/v1/runs", { token: reader.token })).status).toBe(200);

    const listed = await api("GET", "/v1/tokens", { token: admin.token });
    expect(listed.status).toBe(200);
    const rows = listed.json.tokens as { id: string; scopes: string[]; label: string; lastUsedAt: number | null }[];
    expect(rows.map((t) => t.id).sort()).toEqual([admin.id, reader.id].sort());
    expect(rows.find((t) => t.id === reader.id)).toMatchObject({ scopes: ["runs:read"], label: "dashboard" });
    for (const secret of [admin.token, reader.token, other.token]) expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain("sha256:");
    // The operator's admin token names the tenant; a tenant token can't look at another tenant.
    const byOperator = await api("GET", "/v1/tokens?tenant=tok_rev", { token: ADMIN });
    expect((byOperator.json.tokens as unknown[]).length).toBe(2);
    expectRefusal(await api("GET", "/v1/tokens", { token: ADMIN }), 400, "tenant_required");
    expectRefusal(await api("GET", "/v1/tokens?tenant=tok_rev", { token: other.token }), 403, "tenant_forbidden");
    // Another tenant's token is not found, and stays live.
    expectRefusal(await api("DELETE", `/v1/tokens/${reader.id}`, { token: other.token }), 404, "token_not_found");
    expect((await api("GET", "/v1/runs", { token: reader.token })).status).toBe(200);

    const revoked = await api("DELETE", `/v1/tokens/${reader.id}`, { token: admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.json.revokedAt).toEqual(expect.any(Number));
    expectRefusal(await api("GET", "/v1/runs", { token: reader.token }), 401, "token_revoked");
    expectRefusal(await api("GET", "/v1/runs/x/events/stream", { token: reader.token }), 401, "token_revoked");
    expectRefusal(await api("DELETE", `/v1/tokens/${reader.id}`, { token: admin.token }), 404, "token_not_found");
    // The inspector: neither a new login nor an old session cookie works.
    const login = await exports.default.fetch(`${ORIGIN}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ token: reader.token, next: "/runs" }).toString(),
      redirect: "manual",
    });
    expect(login.status).toBe(401);
    const page = await exports.default.fetch(`${ORIGIN}/runs`, {
      headers: { cookie: `little_session=${reader.token}` },
      redirect: "manual",
    });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login/);
    // A cookie session on the API (same-origin) is refused the same way.
    const viaCookie = await api("GET", "/v1/runs", {
      token: null,
      headers: { cookie: `little_session=${reader.token}`, "sec-fetch-site": "same-origin" },
    });
    expectRefusal(viaCookie, 401, "token_revoked");
    expect(((await api("GET", "/v1/tokens", { token: admin.token })).json.tokens as { id: string }[]).map((t) => t.id)).toEqual([admin.id]);

    // The operator revokes any tenant's token, even an admin-scoped one revoking itself works.
    expect((await api("DELETE", `/v1/tokens/${other.id}`, { token: ADMIN })).status).toBe(200);
    expectRefusal(await api("GET", "/v1/runs", { token: other.token }), 401, "token_revoked");
    expect((await api("DELETE", `/v1/tokens/${admin.id}`, { token: admin.token })).status).toBe(200);
    expectRefusal(await api("GET", "/v1/tokens", { token: admin.token }), 401, "token_revoked");
  });

  it("records a token's last use (at most once a minute)", async () => {
    const t = await mint("tok_used", { scopes: ["admin"] });
    expect((await api("GET", "/v1/runs", { token: t.token })).status).toBe(200);
    let lastUsed: unknown = null;
    for (let i = 0; i < 20 && lastUsed === null; i++) {
      const row = await env.DB.prepare("SELECT last_used_at FROM api_tokens WHERE id = ?")
        .bind(t.id)
        .first<{ last_used_at: number | null }>();
      lastUsed = row?.last_used_at ?? null;
      if (lastUsed === null) await new Promise((r) => setTimeout(r, 25));
    }
    expect(lastUsed).toEqual(expect.any(Number));
  });
});

describe("expiry", () => {
  it("a token past expiresIn answers 401 token_expired; expiresAt in the past or both fields are refused and store nothing", async () => {
    const t = await mint("tok_exp", { expiresIn: 1 });
    expect(t.expiresAt).toEqual(expect.any(Number));
    expect((await api("GET", "/v1/runs", { token: t.token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, (t.expiresAt ?? 0) - Date.now()) + 50));
    expectRefusal(await api("GET", "/v1/runs", { token: t.token }), 401, "token_expired");
    expectRefusal(await api("POST", "/v1/workflows/support.summarize-ticket/runs", { token: t.token, body: "{}" }), 401, "token_expired");

    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_tokens WHERE tenant = 'tok_exp_bad'").first<{ n: number }>();
    for (const body of [
      { tenant: "tok_exp_bad", expiresAt: Date.now() - 1000 },
      { tenant: "tok_exp_bad", expiresIn: 60, expiresAt: Date.now() + 60_000 },
      { tenant: "tok_exp_bad", expiresIn: 0 },
      { tenant: "tok_exp_bad", scopes: [] },
      { tenant: "tok_exp_bad", scopes: ["runs:purge"] },
    ]) {
      const r = await api("POST", "/v1/tokens", { token: ADMIN, body: JSON.stringify(body) });
      expect(r.status, r.text).toBe(400);
      expect(["token_expiry_invalid", "invalid_request"]).toContain(r.code);
    }
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_tokens WHERE tenant = 'tok_exp_bad'").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);

    // A future expiresAt is kept as given.
    const at = Date.now() + 3_600_000;
    expect((await mint("tok_exp", { expiresAt: at })).expiresAt).toBe(at);
  });
});

describe("scopes on every route", () => {
  it("every operation of the OpenAPI document has its access listed (an unlisted one would fall back to admin)", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(20);
    expect(ops.filter((op) => !(op in ROUTE_SCOPES))).toEqual([]);
    expect(routeAccess("GET", "/v1/some-route-nobody-mapped")).toBe("admin");
    // A path no route serves is a 404 with or without a token: there is nothing to guard.
    const reader = await mint("tok_unknown", { scopes: ["runs:read"] });
    for (const token of [null, reader.token]) expectRefusal(await api("GET", "/v1/some-route-nobody-mapped", { token }), 404, "not_found");
    expectRefusal(await api("DELETE", "/v1/runs", { token: null }), 404, "not_found");
  });

  it("a token without a route's scope gets 403 insufficient_scope naming it; with only that scope it gets past authorization", async () => {
    const tokens = Object.fromEntries(
      await Promise.all(TOKEN_SCOPES.map(async (s) => [s, await mint("tok_scope", { scopes: [s] })] as const)),
    ) as Record<TokenScope, Minted>;
    let refused = 0;
    for (const op of await operations()) {
      const access = ROUTE_SCOPES[op];
      if (access === undefined || access === "public") continue;
      const [method, path] = op.split(" ") as [string, string];
      const url = concrete(path);
      for (const scope of TOKEN_SCOPES) {
        if (scope === access || scope === "admin") continue;
        const r = await api(method, url, { token: tokens[scope].token, body: bodyFor(method) });
        expectRefusal(r, 403, "insufficient_scope");
        expect((r.json.error as { message: string }).message).toContain(`"${access}" scope`);
        expect(r.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", scope="${access}"`);
        refused++;
      }
      // With exactly the scope (and with admin), authorization is passed: whatever the route says
      // next (404 for the made-up ids, 400 for the empty body), it is not a scope refusal.
      for (const scope of [access, "admin"] as const) {
        const r = await api(method, url, { token: tokens[scope].token, body: bodyFor(method) });
        expect(r.code, `${op} with ${scope}: ${r.text}`).not.toBe("insufficient_scope");
        if (!op.startsWith("POST /v1/tokens")) expect(r.status, `${op} with ${scope}: ${r.text}`).not.toBe(401);
      }
    }
    expect(refused).toBeGreaterThan(40);
  });

  it("refused writes store nothing: no run, no secret, no pin", async () => {
    const reader = await mint("tok_nowrite", { scopes: ["runs:read", "approve"] });
    const start = await api("POST", "/v1/workflows/support.summarize-ticket/runs", {
      token: reader.token,
      body: JSON.stringify({ input: { ticketId: "T-1", body: "printer on fire" }, runId: "should_not_exist" }),
    });
    expectRefusal(start, 403, "insufficient_scope");
    expectRefusal(await api("PUT", "/v1/secrets/CRM_TOKEN", { token: reader.token, body: '{"value":"x"}' }), 403, "insufficient_scope");
    const runs = await env.DB.prepare("SELECT COUNT(*) AS n FROM runs WHERE tenant = 'tok_nowrite'").first<{ n: number }>();
    const secrets = await env.DB.prepare("SELECT COUNT(*) AS n FROM secrets WHERE tenant = 'tok_nowrite'").first<{ n: number }>();
    expect({ runs: runs?.n, secrets: secrets?.n }).toEqual({ runs: 0, secrets: 0 });
    expect((await api("GET", "/v1/runs", { token: reader.token })).json.runs).toEqual([]);
  });

  it("the dev token keeps every scope; the operator's admin token manages tokens only", async () => {
    for (const op of await operations()) {
      const access = ROUTE_SCOPES[op];
      if (access === undefined || access === "public") continue;
      const [method, path] = op.split(" ") as [string, string];
      const r = await api(method, concrete(path), { body: bodyFor(method) });
      expect(r.code, `${op}: ${r.text}`).not.toBe("insufficient_scope");
    }
    expectRefusal(await api("GET", "/v1/runs", { token: ADMIN }), 401, "unauthorized");
    // Minting stays with the operator: a tenant token with admin scope can't mint.
    const tenantAdmin = await mint("tok_mint", { scopes: ["admin"] });
    expectRefusal(await api("POST", "/v1/tokens", { token: tenantAdmin.token, body: '{"tenant":"tok_mint"}' }), 401, "unauthorized");
  });

  it("the inspector refuses a login whose token can't read runs", async () => {
    const approver = await mint("tok_page", { scopes: ["approve"] });
    const login = await exports.default.fetch(`${ORIGIN}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ token: approver.token, next: "/runs" }).toString(),
      redirect: "manual",
    });
    expect(login.status).toBe(403);
    expect(login.headers.get("set-cookie")).toBeNull();
    const page = await exports.default.fetch(`${ORIGIN}/runs`, {
      headers: { authorization: `Bearer ${approver.token}` },
      redirect: "manual",
    });
    expect(page.status).toBe(403);
  });
});
