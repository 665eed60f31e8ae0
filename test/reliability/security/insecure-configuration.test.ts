import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WELL_KNOWN_VALUES } from "../../../src/wiring/insecure-configuration.ts";
import { deployedEnv, fetchWithEnv } from "./support/worker-env.ts";

// Issue 15, finding 8: the `.dev.vars.example` values (dev-token, dev-admin-token, the example
// webhook secret, the example secrets key) were accepted by a deployed Worker, so anyone who read
// the repository could call it. A Worker is local development only with LITTLE_ENV=development
// (npm run dev, .dev.vars, the test configurations); without it, a well-known value in a guarded
// variable makes every route answer 503 `insecure_configuration` naming the variable (health says
// so too), and nothing is stored.

const examples = import.meta.glob<string>("../../../.dev.vars.example", { query: "?raw", import: "default", eager: true });
const EXAMPLE_FILE = Object.values(examples)[0] ?? "";
const exampleValue = (name: string): string => {
  const line = EXAMPLE_FILE.split("\n").find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`${name} is not in .dev.vars.example`);
  return line.slice(name.length + 1).trim();
};

const GUARDED = ["LITTLE_DEV_TOKEN", "LITTLE_ADMIN_TOKEN", "LITTLE_WEBHOOK_SECRET", "LITTLE_SECRETS_KEY"];

async function runRows(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM runs").first<{ n: number }>())?.n ?? 0;
}
async function tokenRows(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM api_tokens").first<{ n: number }>())?.n ?? 0;
}

describe("a deployed Worker refuses well-known example values", () => {
  it("every value in .dev.vars.example for a guarded variable is on the refused list", () => {
    expect(EXAMPLE_FILE).toContain("LITTLE_DEV_TOKEN=");
    for (const name of GUARDED) expect([name, WELL_KNOWN_VALUES.has(exampleValue(name))]).toEqual([name, true]);
    // .dev.vars.example marks itself as local development.
    expect(exampleValue("LITTLE_ENV")).toBe("development");
  });

  it.each(GUARDED)(
    "%s set to its example value: health 503 naming it; API, inspector and webhooks 503 insecure_configuration; nothing stored",
    async (name) => {
      const value = exampleValue(name);
      const vars = deployedEnv({ [name]: value });
      const health = await fetchWithEnv(vars, "GET", "/v1/health");
      expect(health.status).toBe(503);
      expect(health.json.ok).toBe(false);
      expect(health.message).toContain(name);

      const runsBefore = await runRows();
      const tokensBefore = await tokenRows();
      const bearer = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
      const token = name === "LITTLE_DEV_TOKEN" ? value : (vars.LITTLE_DEV_TOKEN as string);
      const admin = name === "LITTLE_ADMIN_TOKEN" ? value : (vars.LITTLE_ADMIN_TOKEN as string);
      const answers = [
        await fetchWithEnv(vars, "GET", "/v1/runs", { headers: bearer(token) }),
        await fetchWithEnv(vars, "POST", "/v1/workflows/support.summarize-ticket/runs", {
          headers: bearer(token),
          body: JSON.stringify({ input: { ticketId: "T", transcript: "t" } }),
        }),
        await fetchWithEnv(vars, "POST", "/v1/tokens", { headers: bearer(admin), body: JSON.stringify({ tenant: "acme" }) }),
        await fetchWithEnv(vars, "PUT", "/v1/secrets/CRM_TOKEN", {
          headers: bearer(token),
          body: JSON.stringify({ value: "s3cret-value" }),
        }),
        await fetchWithEnv(vars, "POST", "/v1/hooks/support.summarize-ticket", {
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
        await fetchWithEnv(vars, "GET", "/v1/openapi.json"),
        await fetchWithEnv(vars, "POST", "/login", {
          headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
          body: new URLSearchParams({ token, next: "/runs" }).toString(),
        }),
        await fetchWithEnv(vars, "GET", "/runs", { headers: { authorization: `Bearer ${token}` } }),
      ];
      for (const a of answers) {
        expect([a.status, a.code]).toEqual([503, "insecure_configuration"]);
        expect(a.message).toContain(name);
      }
      expect(await runRows()).toBe(runsBefore);
      expect(await tokenRows()).toBe(tokensBefore);
    },
  );

  it("names every guarded variable that holds one", async () => {
    const vars = deployedEnv({ LITTLE_DEV_TOKEN: "dev-token", LITTLE_SECRETS_KEY: exampleValue("LITTLE_SECRETS_KEY") });
    const r = await fetchWithEnv(vars, "GET", "/v1/runs", { headers: { authorization: "Bearer dev-token" } });
    expect([r.status, r.code]).toEqual([503, "insecure_configuration"]);
    expect(r.message).toContain("LITTLE_DEV_TOKEN");
    expect(r.message).toContain("LITTLE_SECRETS_KEY");
  });

  it("with fresh values, a deployed Worker answers; with LITTLE_ENV=development the example values are accepted", async () => {
    const fresh = deployedEnv();
    expect((await fetchWithEnv(fresh, "GET", "/v1/health")).status).toBe(200);
    const runs = await fetchWithEnv(fresh, "GET", "/v1/runs", { headers: { authorization: `Bearer ${fresh.LITTLE_DEV_TOKEN as string}` } });
    expect(runs.status, runs.text).toBe(200);
    const local = deployedEnv({ LITTLE_ENV: "development", LITTLE_DEV_TOKEN: "dev-token" });
    expect((await fetchWithEnv(local, "GET", "/v1/health")).status).toBe(200);
    expect((await fetchWithEnv(local, "GET", "/v1/runs", { headers: { authorization: "Bearer dev-token" } })).status).toBe(200);
    // Any other LITTLE_ENV is a deployed Worker.
    const staging = deployedEnv({ LITTLE_ENV: "staging", LITTLE_DEV_TOKEN: "dev-token" });
    expect((await fetchWithEnv(staging, "GET", "/v1/runs", { headers: { authorization: "Bearer dev-token" } })).code).toBe(
      "insecure_configuration",
    );
  });
});
