/**
 * Issue 15, finding 8, against a real `wrangler dev` whose vars come from `--var` as a deploy's
 * would: without LITTLE_ENV=development it is a deployed Worker, and the `.dev.vars.example`
 * values make it refuse every request (503 `insecure_configuration` naming the variables; health
 * answers 503 with the message). With LITTLE_ENV=development the same values serve.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectApiError, INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const EXAMPLE: Record<string, string> = Object.fromEntries(
  readFileSync(resolve(import.meta.dirname, "../../.dev.vars.example"), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1).trim()]),
);
const GUARDED = ["LITTLE_DEV_TOKEN", "LITTLE_ADMIN_TOKEN", "LITTLE_WEBHOOK_SECRET", "LITTLE_SECRETS_KEY"];
const exampleVars = Object.fromEntries(GUARDED.map((name) => [name, EXAMPLE[name] as string]));

describe("a deployed wrangler dev with the .dev.vars.example values", () => {
  let dev: WranglerDev;
  beforeAll(async () => {
    dev = await startWranglerDev({ vars: { ...exampleVars, LITTLE_ENV: "production" }, readyStatus: 503 });
  });
  afterAll(async () => {
    await dev?.dispose();
  });

  it("answers 503 insecure_configuration naming every such variable, and stores nothing", async () => {
    const api = client(dev.url, exampleVars.LITTLE_DEV_TOKEN as string);
    const health = await api.call("GET", "/v1/health", { token: null });
    expect(health.status).toBe(503);
    for (const name of GUARDED) expect(health.text).toContain(name);
    const start = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: INPUT } });
    expectApiError(start, 503, "insecure_configuration");
    for (const name of GUARDED) expect(start.json.error?.message).toContain(name);
    expectApiError(await api.call("GET", "/v1/runs"), 503, "insecure_configuration");
    const login = await fetch(`${dev.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ token: exampleVars.LITTLE_DEV_TOKEN as string, next: "/runs" }).toString(),
    });
    expect(login.status).toBe(503);
    expect(login.headers.get("set-cookie")).toBeNull();
  });
});

describe("the same values in local development (LITTLE_ENV=development)", () => {
  let dev: WranglerDev;
  beforeAll(async () => {
    dev = await startWranglerDev({ vars: { ...exampleVars, LITTLE_ENV: "development" } });
  });
  afterAll(async () => {
    await dev?.dispose();
  });

  it("serves them", async () => {
    const api = client(dev.url, exampleVars.LITTLE_DEV_TOKEN as string);
    const listed = await api.call("GET", "/v1/runs?limit=1");
    expect(listed.status, listed.text).toBe(200);
  });
});
