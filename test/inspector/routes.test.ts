import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { safeNext } from "../../src/inspector/routes.ts";
import { overrideWiring } from "../../src/wiring.ts";

const DEV = "test-dev-token";
const INPUT = { ticketId: "T-7", transcript: "Login fails with a 500." };
const ORIGIN = "http://little.test";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

const get = (path: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(`${ORIGIN}${path}`, { headers, redirect: "manual" });

async function login(token: string, next = "/runs", headers: Record<string, string> = {}) {
  return exports.default.fetch(`${ORIGIN}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ token, next }).toString(),
    redirect: "manual",
  });
}

async function sessionCookie(token = DEV): Promise<string> {
  const res = await login(token);
  expect(res.status).toBe(303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

async function startRun(token: string): Promise<string> {
  const res = await exports.default.fetch(`${ORIGIN}/v1/workflows/support.summarize-ticket/runs?wait=20`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ input: INPUT }),
  });
  const body = (await res.json()) as { run: { runId: string; status: string } };
  expect(body.run.status).toBe("completed");
  return body.run.runId;
}

describe("inspector pages", () => {
  it("redirect to the login form, with where to come back to, when there is no session", async () => {
    const res = await get("/runs/run_x?tab=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/runs/run_x?tab=1")}`);
    const form = await get("/login?next=%2Fruns%2Frun_x");
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="next" value="/runs/run_x"');
  });

  it("log in with a valid token only and set an HttpOnly, SameSite=Strict session cookie", async () => {
    const bad = await login("wrong");
    expect(bad.status).toBe(401);
    expect(bad.headers.get("set-cookie")).toBeNull();
    const ok = await login(DEV, "/runs/run_x");
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/runs/run_x");
    const cookie = ok.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^little_session=test-dev-token;/);
    for (const attribute of [/HttpOnly/i, /SameSite=Strict/i, /Path=\//, /Max-Age=43200/]) expect(cookie).toMatch(attribute);
    expect(cookie).not.toMatch(/Secure/i); // plain http here; https gets Secure
    const out = await exports.default.fetch(`${ORIGIN}/logout`, {
      method: "POST",
      headers: { cookie: cookie.split(";")[0] as string },
      redirect: "manual",
    });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/little_session=;.*Max-Age=0/);
  });

  it("refuse a login form larger than a token and a path", async () => {
    const res = await login("x".repeat(9_000));
    expect(res.status).toBe(413);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("refuse a login form posted from another site", async () => {
    const res = await login(DEV, "/runs", { "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("only ever send the user on to a path of this site after login", () => {
    expect(safeNext("/runs/a?b=1")).toBe("/runs/a?b=1");
    for (const unsafe of ["//evil.example", "/\\evil.example", "https://evil.example", "runs", "", undefined])
      expect(safeNext(unsafe)).toBe("/runs");
  });

  it("serve a run of the tenant, and 404 for a run of another tenant or none, with a strict CSP and escaped ids", async () => {
    const runId = await startRun(DEV);
    const cookie = await sessionCookie();
    const page = await get(`/runs/${runId}`, { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-run-id="${runId}"`);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'; script-src 'self'");
    // Everything the page loads is the Worker's own.
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) expect(url).toMatch(/^[/#]/);

    const tokenRes = await exports.default.fetch(`${ORIGIN}/v1/tokens`, {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
      body: JSON.stringify({ tenant: "inspector-other" }),
    });
    const other = ((await tokenRes.json()) as { token: string }).token;
    const foreign = await get(`/runs/${runId}`, { cookie: await sessionCookie(other) });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain("Run not found");

    const hostile = await get("/runs/%3Cscript%3Ealert(1)%3C%2Fscript%3E", { cookie });
    expect(hostile.status).toBe(404);
    const text = await hostile.text();
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(text).not.toContain("<script>alert");
  });

  it("serve the bundled script and stylesheet with validators", async () => {
    const js = await get("/inspector/app.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect(await js.text()).toContain("layoutDag");
    const etag = js.headers.get("etag") as string;
    expect((await get("/inspector/app.js", { "if-none-match": etag })).status).toBe(304);
    const css = await get("/inspector/app.css");
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(await css.text()).toContain("--succeeded-bg");
  });
});

describe("the API with the session cookie", () => {
  it("accepts it on same-origin requests only; a bearer header still decides when present", async () => {
    const cookie = await sessionCookie();
    const status = (headers: Record<string, string>) => get("/v1/runs", headers).then((r) => r.status);
    expect(await status({ cookie, "sec-fetch-site": "same-origin" })).toBe(200);
    expect(await status({ cookie })).toBe(401);
    expect(await status({ cookie, "sec-fetch-site": "cross-site" })).toBe(401);
    expect(await status({ cookie, "sec-fetch-site": "same-origin", authorization: "Bearer wrong" })).toBe(401);
    expect(await status({ authorization: `Bearer ${DEV}` })).toBe(200);
    expect(await status({ cookie: "little_session=wrong", "sec-fetch-site": "same-origin" })).toBe(401);
  });
});
