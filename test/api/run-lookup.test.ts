/**
 * Every door that reaches one run finds it through findTenantRun (src/engine/runs/find-tenant-run.ts):
 * a deleted run is 410 `run_deleted` at each, an unknown id 404 `run_not_found`, and another
 * tenant's run 404 too (never 403: run ids are per tenant). The HTTP routes and the RPC entrypoint.
 */
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call, tenantToken } from "./support/api-call.ts";

const INPUT = { ticketId: "T-25", transcript: "Where is my run?" };
const SUMMARIZE = "/v1/workflows/support.summarize-ticket/runs";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

async function completedRun(token?: string): Promise<string> {
  const r = await call("POST", `${SUMMARIZE}?wait=30`, { body: { input: INPUT }, ...(token ? { token } : {}) });
  expect(r.status, r.text).toBe(200);
  return (r.json.run as { runId: string }).runId;
}

/** Each door of one run, as `[method, path, body]`. */
function doors(runId: string): [string, string, unknown?][] {
  const run = `/v1/runs/${runId}`;
  return [
    ["GET", run],
    ["GET", `${run}/events`],
    ["GET", `${run}/events/stream`],
    ["GET", `${run}/stream`],
    ["GET", `${run}/approvals`],
    ["POST", `${run}/approvals/apr_x`, { decision: "approve", argsHash: `sha256:${"0".repeat(64)}` }],
    ["GET", `${run}/signals`],
    ["POST", `${run}/signals`, { name: "go", payload: {} }],
    ["POST", `${run}/triggers`, { input: {} }],
    ["POST", `${run}/cancel`],
    ["POST", `${run}/pause`],
    ["POST", `${run}/resume`],
    ["POST", `${run}/supersede`, { into: "run_somewhere_else" }],
    ["POST", `${run}/restart`, {}],
    ["POST", `${run}/fork`, { input: INPUT }],
    ["GET", `${run}/compare/${runId}`],
  ];
}

/** The RPC entrypoint's doors of one run, through a service binding of the dev token's tenant. */
function rpcDoors(runId: string): [string, () => Promise<unknown>][] {
  const rpc = exports.LittleWorkflowEntrypoint({ props: { tenant: "dev" } });
  return [
    ["getRun", () => rpc.getRun(runId)],
    ["listEvents", () => rpc.listEvents(runId)],
    ["cancel", () => rpc.cancel(runId)],
    ["pauseRun", () => rpc.pauseRun(runId)],
    ["sendSignal", () => rpc.sendSignal(runId, "go", {})],
    ["listApprovals", () => rpc.listApprovals(runId)],
    ["trigger", () => rpc.trigger(runId, {})],
    ["restartRun", () => rpc.restartRun(runId)],
    ["forkRun", () => rpc.forkRun(runId, { input: INPUT })],
    ["compareRuns", () => rpc.compareRuns(runId, runId)],
  ];
}

async function answers(runId: string, token?: string): Promise<{ door: string; status: number; code: string | undefined }[]> {
  const out = [];
  for (const [method, path, body] of doors(runId)) {
    const r = await call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
    out.push({ door: `${method} ${path}`, status: r.status, code: r.json.error?.code });
  }
  return out;
}

const every = (runId: string, status: number, code: string) =>
  doors(runId).map(([method, path]) => ({ door: `${method} ${path}`, status, code }));

describe("one run lookup at every door", () => {
  it("a deleted run is 410 run_deleted everywhere, over HTTP and RPC", async () => {
    const runId = await completedRun();
    expect((await call("DELETE", `/v1/runs/${runId}`)).status).toBe(200);
    expect(await answers(runId)).toEqual(every(runId, 410, "run_deleted"));
    for (const [name, door] of rpcDoors(runId))
      expect(await door().catch((e: { code?: string; status?: number }) => [e.code, e.status]), name).toEqual(["run_deleted", 410]);
  });

  it("an unknown id is 404 run_not_found everywhere, with the API's message", async () => {
    const runId = `run_unknown_${crypto.randomUUID().slice(0, 8)}`;
    expect(await answers(runId)).toEqual(every(runId, 404, "run_not_found"));
    const read = await call("GET", `/v1/runs/${runId}`);
    expect(read.json.error?.message).toBe(`No run "${runId}"`);
    for (const [name, door] of rpcDoors(runId))
      expect(await door().catch((e: { code?: string; status?: number }) => [e.code, e.status]), name).toEqual(["run_not_found", 404]);
  });

  it("another tenant's run is 404 everywhere and is left as it was", async () => {
    const other = await tenantToken(`look${crypto.randomUUID().slice(0, 8)}`);
    const runId = await completedRun(other);
    expect(await answers(runId)).toEqual(every(runId, 404, "run_not_found"));
    const own = await call("GET", `/v1/runs/${runId}`, { token: other });
    expect({ status: own.status, run: (own.json.run as { status: string }).status }).toEqual({ status: 200, run: "completed" });
  });
});
