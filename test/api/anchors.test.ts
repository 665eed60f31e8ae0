import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { call, runEvents, tenantToken } from "./support/api-call.ts";

const INPUT = { ticketId: "T-A", transcript: "Please reset my password." };
const WF = "support.summarize-ticket";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

async function mint(token?: string): Promise<string> {
  const r = await call("POST", `/v1/workflows/${WF}/anchors`, token ? { token } : {});
  expect(r.status).toBe(201);
  expect(r.json.run).toMatchObject({ status: "minted", workflowId: WF });
  return (r.json.run as { runId: string }).runId;
}

describe("adopted run anchors", () => {
  it("a minted anchor is listed as minted, and starting it adopts the same row", async () => {
    const token = await tenantToken(`anc_${crypto.randomUUID().slice(0, 8)}`);
    const runId = await mint(token);
    expect((await call("GET", `/v1/runs/${runId}`, { token })).json.run).toMatchObject({ status: "minted", eventCount: 0 });
    const started = await call("POST", `/v1/workflows/${WF}/runs?wait=20`, { token, body: { runId, input: INPUT } });
    expect(started.status).toBe(200);
    expect(started.json.run).toMatchObject({ runId, status: "completed" });
    const listed = await call("GET", "/v1/runs", { token });
    expect((listed.json.runs as { runId: string; status: string; triggerKind: string }[]).filter((r) => r.runId === runId)).toEqual([
      expect.objectContaining({ runId, status: "completed" }),
    ]);
  });

  it("two concurrent starts of one anchor yield one run", async () => {
    const tenant = `race_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const runId = await mint(token);
    const starts = await Promise.all(
      Array.from({ length: 6 }, () => call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input: INPUT } })),
    );
    for (const s of starts) expect(s.json.run).toMatchObject({ runId });
    expect(((await call("GET", `/v1/runs/${runId}`, { token })).json.run as { status: string }).status).not.toBe("minted");
    expect((await runStub(runId, tenant).waitForEnd(20_000)).status).toBe("completed");
    const events = await runEvents(runId, token);
    expect(events.filter((e) => e.type === "RunRequested")).toHaveLength(1);
    expect(events.filter((e) => e.type === "harness.session.started" && e.payload.role === "planner")).toHaveLength(1);
  });

  it("another tenant's anchor is refused before any effect", async () => {
    const owner = await tenantToken(`own_${crypto.randomUUID().slice(0, 8)}`);
    const thiefTenant = `thief_${crypto.randomUUID().slice(0, 8)}`;
    const thief = await tenantToken(thiefTenant);
    const runId = await mint(owner);
    const r = await call("POST", `/v1/workflows/${WF}/runs`, { token: thief, body: { runId, input: INPUT } });
    expect(r.status).toBe(404);
    expect(r.json.error?.code).toBe("run_not_found");
    // Nothing happened: no run object for the thief, no row, and the anchor is still the owner's, minted.
    expect((await runStub(runId, thiefTenant).status()).eventCount).toBe(0);
    expect((await call("GET", "/v1/runs", { token: thief })).json.runs).toEqual([]);
    expect((await call("GET", `/v1/runs/${runId}`, { token: owner })).json.run).toMatchObject({ status: "minted" });
    // The owner can still start it.
    expect((await call("POST", `/v1/workflows/${WF}/runs?wait=20`, { token: owner, body: { runId, input: INPUT } })).status).toBe(200);
  });

  it("refuses to start an anchor as another workflow", async () => {
    const runId = await mint();
    const r = await call("POST", "/v1/workflows/some.other-workflow/runs", { body: { runId, input: INPUT } });
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe("anchor_workflow_mismatch");
    expect((await call("GET", `/v1/runs/${runId}`)).json.run).toMatchObject({ status: "minted" });
  });

  it("cancelling an anchor before any start ends it: a later start is refused and creates nothing", async () => {
    const tenant = `cx_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const runId = await mint(token);
    const cancelled = await call("POST", `/v1/runs/${runId}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.run).toMatchObject({ runId, status: "cancelled" });
    const start = await call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input: INPUT } });
    expect(start.status).toBe(409);
    expect(start.json.error?.code).toBe("run_ended");
    expect((await runStub(runId, tenant).status()).eventCount).toBe(0);
    expect((await call("GET", `/v1/runs/${runId}`, { token })).json.run).toMatchObject({ status: "cancelled" });
  });
});
