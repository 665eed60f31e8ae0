/**
 * LittleWorkflowEntrypoint through the Worker's own loopback service binding (`exports`), as
 * another Worker of the account reaches it: no token, the tenant from the binding's props, the
 * HTTP API's start and read path, and errors thrown with the API's stable codes.
 */
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../src/wiring.ts";

const INPUT = { ticketId: "T-7", transcript: "Charged twice for one order." };
const WORKFLOW = "support.summarize-ticket";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

/** A service binding to the entrypoint, as a caller's `services = [{ …, props = { tenant } }]` makes it. */
const binding = (tenant?: string) => exports.LittleWorkflowEntrypoint(tenant === undefined ? {} : { props: { tenant } });

/** The error a rejected RPC call carries (RPC keeps own properties, not the class). */
async function rpcError(
  call: Promise<unknown>,
): Promise<{ name: string; code: string; status: number; message: string; findings?: unknown[] }> {
  try {
    await call;
  } catch (error) {
    return error as { name: string; code: string; status: number; message: string; findings?: unknown[] };
  }
  throw new Error("the call did not fail");
}

describe("LittleWorkflowEntrypoint (service bindings)", () => {
  it("starts a run that completes, as the binding's tenant, visible over HTTP to that tenant only", async () => {
    const rpc = binding("dev");
    const run = await rpc.startRun(WORKFLOW, INPUT, { wait: 20 });
    expect(run).toMatchObject({ workflowId: WORKFLOW, status: "completed", versionId: expect.stringMatching(/^wfver_/) });
    expect(run.output).toMatchObject({ summary: expect.any(String), severity: expect.any(String) });
    expect(await rpc.getRun(run.runId)).toMatchObject({ runId: run.runId, status: "completed" });

    // The same run over HTTP, for the tenant whose token is the dev token.
    const http = await exports.default.fetch(`http://little.test/v1/runs/${run.runId}`, {
      headers: { authorization: "Bearer test-dev-token" },
    });
    expect(http.status).toBe(200);
    expect(((await http.json()) as { run: { status: string } }).run.status).toBe("completed");

    // Another tenant's binding does not see it.
    expect(await rpcError(binding("other-tenant").getRun(run.runId))).toMatchObject({
      name: "LittleRpcError",
      code: "run_not_found",
      status: 404,
    });

    const page = await rpc.listRuns({ workflow: WORKFLOW, status: "completed", limit: 200 });
    expect(page.runs.map((r) => r.runId)).toContain(run.runId);
    const events = await rpc.listEvents(run.runId, { type: "Run*" });
    expect(events.events[0]?.type).toBe("RunRequested");
    expect(events.events.at(-1)?.type).toBe("RunCompleted");
    // The run's stream (events and live model output) as SSE bytes; past the end it holds what is logged and closes.
    const streamed = await new Response(await rpc.streamRun(run.runId, { after: 0 })).text();
    expect(streamed).toContain("event: RunRequested");
    expect(streamed.trimEnd().split("\n\n").at(-1)).toMatch(/^id: \d+\nevent: RunCompleted\n/);
  });

  it("waitForRun waits for a run in flight and answers it ended; seconds: 0 answers at once, as it is", async () => {
    // Each model call takes 150 ms: the run is still compiling when the wait begins.
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 150 }) });
    const rpc = binding("rpc-wait");
    const started = await rpc.startRun(WORKFLOW, INPUT);
    expect(["pending", "compiling"]).toContain(started.status);
    const now = await rpc.waitForRun(started.runId, 0);
    expect(["pending", "compiling", "running"]).toContain(now.status);
    const t0 = Date.now();
    const ended = await rpc.waitForRun(started.runId, 30);
    expect(ended).toMatchObject({
      runId: started.runId,
      status: "completed",
      output: expect.objectContaining({ summary: expect.any(String) }),
    });
    // It waited: at least the planner's and the worker's model calls.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it("refuses input that does not fit the schema with input_schema_error and its findings; nothing is created", async () => {
    const rpc = binding("rpc-bad-input");
    const error = await rpcError(rpc.startRun(WORKFLOW, { ticketId: 7 }, { runId: "run_rpc_bad" }));
    expect(error).toMatchObject({ name: "LittleRpcError", code: "input_schema_error", status: 422 });
    expect(error.findings?.length).toBeGreaterThan(0);
    expect(await rpcError(rpc.getRun("run_rpc_bad"))).toMatchObject({ code: "run_not_found" });
  });

  it("checks arguments as the HTTP routes check requests (invalid_request), and names an unknown workflow", async () => {
    const rpc = binding("rpc-args");
    expect(await rpcError(rpc.startRun(WORKFLOW, INPUT, { runId: "no spaces allowed" }))).toMatchObject({
      code: "invalid_request",
      status: 400,
      findings: [expect.objectContaining({ path: "$.runId" })],
    });
    expect(await rpcError(rpc.startRun(WORKFLOW, INPUT, { wait: 600 }))).toMatchObject({ code: "invalid_request" });
    expect(await rpcError(rpc.listRuns({ status: "exploded" as never }))).toMatchObject({ code: "invalid_request" });
    expect(await rpcError(rpc.startRun("no.such-workflow", INPUT))).toMatchObject({ code: "workflow_not_found", status: 404 });
  });

  it("refuses any malformed options or query object (null, a string, a misspelled key) with invalid_request, never internal_error", async () => {
    const rpc = binding("rpc-malformed");
    const started = await rpc.startRun(WORKFLOW, INPUT, { runId: "run_rpc_malformed" });
    const refusals: [string, Promise<unknown>][] = [
      ["startRun null", rpc.startRun(WORKFLOW, INPUT, null as never)],
      ["startRun string", rpc.startRun(WORKFLOW, INPUT, "fast" as never)],
      ["startRun misspelled", rpc.startRun(WORKFLOW, INPUT, { waitt: 30 } as never)],
      ["waitForRun null", rpc.waitForRun(started.runId, null as never)],
      ["listRuns null", rpc.listRuns(null as never)],
      ["listRuns misspelled", rpc.listRuns({ statuss: "completed" } as never)],
      ["listEvents null", rpc.listEvents(started.runId, null as never)],
      ["streamRun null", rpc.streamRun(started.runId, null as never)],
      ["streamRun misspelled", rpc.streamRun(started.runId, { afterr: 1 } as never)],
      ["cancel null reason", rpc.cancel(started.runId, null as never)],
      ["trigger null", rpc.trigger(started.runId, {}, null as never)],
      ["decideApproval null", rpc.decideApproval(started.runId, "appr_1", null as never)],
    ];
    for (const [what, call] of refusals) {
      expect({ what, error: await rpcError(call) }).toMatchObject({
        what,
        error: {
          name: "LittleRpcError",
          code: "invalid_request",
          status: 400,
          findings: [expect.objectContaining({ code: "request.invalid" })],
        },
      });
    }
    // The refused start created nothing: only the first run is the tenant's.
    expect((await rpc.listRuns()).runs.map((r) => r.runId)).toEqual([started.runId]);
  });

  it("an idempotency key returns the same run; other input under it is idempotency_conflict", async () => {
    const rpc = binding("rpc-idem");
    const first = await rpc.startRun(WORKFLOW, INPUT, { idempotencyKey: "order-9" });
    const again = await rpc.startRun(WORKFLOW, INPUT, { idempotencyKey: "order-9" });
    expect(again.runId).toBe(first.runId);
    expect(await rpcError(rpc.startRun(WORKFLOW, { ...INPUT, ticketId: "T-8" }, { idempotencyKey: "order-9" }))).toMatchObject({
      code: "idempotency_conflict",
      status: 409,
    });
    const cancelled = await rpc.cancel(first.runId);
    expect(["cancelled", "completed"]).toContain(cancelled.status);
  });

  it("pauseRun and resumeRun go through the run object; an ended run is run_ended; tags filter listRuns", async () => {
    const rpc = binding("rpc-pause");
    const run = await rpc.startRun(WORKFLOW, INPUT, { tags: { team: "rpc" } });
    // The run may finish before the pause lands: then the pause is refused as ended.
    const paused = await rpc.pauseRun(run.runId).catch((error: unknown) => error as { code?: string });
    if ("status" in paused && paused.status === "paused") {
      expect(paused).toMatchObject({ runId: run.runId, status: "paused", paused: { by: "rpc" } });
      expect((await rpc.listRuns({ status: "paused" })).runs.map((r) => r.runId)).toContain(run.runId);
      expect((await rpc.resumeRun(run.runId)).status).not.toBe("paused");
    }
    expect((await rpc.waitForRun(run.runId, 20)).status).toBe("completed");
    expect(await rpcError(rpc.pauseRun(run.runId))).toMatchObject({ code: "run_ended", status: 409 });
    expect((await rpc.listRuns({ tag: "team:rpc" })).runs.map((r) => r.runId)).toEqual([run.runId]);
    expect(await rpcError(rpc.startRun(WORKFLOW, INPUT, { tags: { "bad key": "x" } }))).toMatchObject({
      code: "run_tags_invalid",
      status: 422,
    });
  });

  it("without props the tenant is LITTLE_RPC_TENANT, else default", async () => {
    const run = await binding().startRun(WORKFLOW, INPUT, { runId: "run_rpc_default_tenant" });
    expect(await binding("default").getRun(run.runId)).toMatchObject({ runId: "run_rpc_default_tenant" });
    expect(await rpcError(binding("Not A Tenant!").getRun(run.runId))).toMatchObject({ code: "invalid_request" });
  });
});
