/**
 * Who may see what, and what bad requests get, against a real `wrangler dev`: tenant tokens made
 * with the admin token, another tenant's run is simply not found, and every bad request is a 4xx
 * JSON error with a stable code and no stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectApiError, INPUT, type Run, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let dev: WranglerDev;
let api: ReturnType<typeof client>;
const START = `/v1/workflows/${SEED_WORKFLOW}/runs`;

beforeAll(async () => {
  dev = await startWranglerDev();
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
});

async function tenantToken(tenant: string): Promise<string> {
  const r = await api.call("POST", "/v1/tokens", { token: dev.adminToken, body: { tenant } });
  expect(r.status, r.text).toBe(201);
  // The secret once, with the token's record (id, scopes, expiry): never its digest.
  expect(r.json).toMatchObject({ tenant, token: expect.stringMatching(/^lwt_/), id: expect.stringMatching(/^tok_[0-9a-f]{16}$/) });
  expect(r.text).not.toContain("sha256:");
  return r.json.token as string;
}

describe("tenancy", () => {
  it("tenant B gets 404 for tenant A's run, events, stream, cancel and version, and does not list it", async () => {
    const a = await tenantToken("tenant-a");
    const b = await tenantToken("tenant-b");
    expect(a).not.toBe(b);

    const r = await api.call("POST", `${START}?wait=30`, { token: a, body: { input: INPUT } });
    expect(r.status, r.text).toBe(200);
    const run = runOf(r);
    expect(run.status).toBe("completed");
    const versionId = run.versionId as string;
    expect(versionId).toMatch(/^wfver_/);

    // A sees all of it (so the 404s below are about the tenant, not about the paths).
    for (const path of [`/v1/runs/${run.runId}`, `/v1/runs/${run.runId}/events`, `/v1/versions/${versionId}`]) {
      expect((await api.call("GET", path, { token: a })).status, path).toBe(200);
    }
    const streamed = await fetch(`${dev.url}/v1/runs/${run.runId}/events/stream`, { headers: { authorization: `Bearer ${a}` } });
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain("event: RunCompleted");
    const listA = await api.call("GET", "/v1/runs?limit=200", { token: a });
    expect((listA.json.runs as Run[]).map((x) => x.runId)).toEqual([run.runId]);

    for (const [method, path, code] of [
      ["GET", `/v1/runs/${run.runId}`, "run_not_found"],
      ["GET", `/v1/runs/${run.runId}/events`, "run_not_found"],
      ["GET", `/v1/runs/${run.runId}/events/stream`, "run_not_found"],
      ["POST", `/v1/runs/${run.runId}/cancel`, "run_not_found"],
      ["GET", `/v1/versions/${versionId}`, "version_not_found"],
    ] as const) {
      const denied = await api.call(method, path, { token: b });
      expectApiError(denied, 404, code);
      expect(denied.text).not.toContain(INPUT.transcript);
    }
    const listB = await api.call("GET", "/v1/runs?limit=200", { token: b });
    expect(listB.status).toBe(200);
    expect((listB.json.runs as Run[]).map((x) => x.runId)).not.toContain(run.runId);
    // Nor does the dev tenant see it.
    const listDev = await api.call("GET", "/v1/runs?limit=200");
    expect((listDev.json.runs as Run[]).map((x) => x.runId)).not.toContain(run.runId);

    // B's cancel did nothing to A's run.
    expect(runOf(await api.call("GET", `/v1/runs/${run.runId}`, { token: a })).status).toBe("completed");
  });

  it("creating tokens needs the admin token", async () => {
    expectApiError(await api.call("POST", "/v1/tokens", { body: { tenant: "x" } }), 401, "unauthorized");
    expectApiError(await api.call("POST", "/v1/tokens", { token: null, body: { tenant: "x" } }), 401, "unauthorized");
  });
});

describe("bad input", () => {
  it("refuses malformed JSON with 400 invalid_json", async () => {
    expectApiError(await api.call("POST", START, { raw: '{"input": ' }), 400, "invalid_json");
  });

  it("refuses wrong types (runId: 42) with 400 invalid_request naming the field", async () => {
    const r = await api.call("POST", START, { body: { input: INPUT, runId: 42 } });
    expectApiError(r, 400, "invalid_request");
    expect(r.json.error?.findings?.map((f) => f.path)).toContain("$.runId");
  });

  it("refuses input that does not match the workflow's schema with 422 input_schema_error, starting nothing", async () => {
    const before = await api.call("GET", "/v1/runs?limit=200");
    const r = await api.call("POST", START, { body: { input: { ticketId: 1 } } });
    expectApiError(r, 422, "input_schema_error");
    expect(r.json.error?.findings?.length).toBeGreaterThan(0);
    const after = await api.call("GET", "/v1/runs?limit=200");
    expect(after.json.runs).toEqual(before.json.runs);
  });

  it("refuses a 10 MB body with 413 payload_too_large", async () => {
    const raw = JSON.stringify({ input: { ticketId: "x", transcript: "y".repeat(10 * 1024 * 1024) } });
    expectApiError(await api.call("POST", START, { raw }), 413, "payload_too_large");
    // The Worker still serves afterwards.
    expect((await api.call("GET", "/v1/health")).status).toBe(200);
  });

  it("answers an unknown workflow with 404 workflow_not_found and an unknown run with 404 run_not_found", async () => {
    expectApiError(await api.call("POST", "/v1/workflows/no.such-workflow/runs", { body: { input: {} } }), 404, "workflow_not_found");
    expectApiError(await api.call("GET", "/v1/runs/run_missing"), 404, "run_not_found");
    expectApiError(await api.call("GET", "/v1/runs/run_missing/events"), 404, "run_not_found");
  });

  it("refuses a request with no token, or a wrong one, with 401 unauthorized", async () => {
    expectApiError(await api.call("POST", START, { token: null, body: { input: INPUT } }), 401, "unauthorized");
    expectApiError(await api.call("GET", "/v1/runs", { token: null }), 401, "unauthorized");
    expectApiError(await api.call("GET", "/v1/runs", { token: "not-a-token" }), 401, "unauthorized");
  });
});
