import { exports } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { WorkflowInputValidationError } from "../../src/sdk/errors/workflow-input-validation-error.ts";
import { overrideWiring } from "../../src/wiring.ts";

const DEV = "test-dev-token";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const INPUT = { ticketId: "T-42", transcript: "The dashboard shows a 500 error since the upgrade." };

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

type Json = Record<string, unknown> & { error?: { code: string; message: string; findings?: { path: string }[] } };

async function call(
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? DEV : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const res = await exports.default.fetch(`http://little.test${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text.startsWith("{") ? JSON.parse(text) : {}) as Json, text };
}

const run = (j: Json) => j.run as { runId: string; status: string; versionId?: string; output?: unknown; cause?: { code: string } };

async function newTenantToken(tenant: string): Promise<string> {
  const r = await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant } });
  expect(r.status).toBe(201);
  return r.json.token as string;
}

describe("POST /v1/workflows/:id/runs (the HTTP trigger)", () => {
  it("runs the seed example to completion with ?wait and answers 200 with output, version and links", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    expect(r.status).toBe(200);
    expect(run(r.json).status).toBe("completed");
    expect(run(r.json).versionId).toMatch(/^wfver_/);
    expect(run(r.json).output).toMatchObject({ severity: expect.any(String), summary: expect.any(String) });
    expect((r.json.links as { self: string }).self).toBe(`http://little.test/v1/runs/${run(r.json).runId}`);
    const got = await call("GET", `/v1/runs/${run(r.json).runId}`);
    expect(got.status).toBe(200);
    expect(run(got.json)).toMatchObject({ status: "completed", versionId: run(r.json).versionId });
  });

  it("answers 202 at once without wait, and the same Idempotency-Key returns the same run", async () => {
    const first = await call("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: { input: INPUT },
      headers: { "idempotency-key": "order-77" },
    });
    expect(first.status).toBe(202);
    expect(first.headers.get("location")).toContain(run(first.json).runId);
    const again = await call("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: { input: INPUT },
      headers: { "idempotency-key": "order-77" },
    });
    expect(run(again.json).runId).toBe(run(first.json).runId);
    const conflict = await call("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: { input: { ...INPUT, ticketId: "other" } },
      headers: { "idempotency-key": "order-77" },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error?.code).toBe("idempotency_conflict");
  });

  it.each([
    ["malformed JSON", { raw: '{"input": ' }, 400, "invalid_json"],
    ["wrong types", { body: { input: INPUT, runId: 42 } }, 400, "invalid_request"],
    ["input against the schema", { body: { input: { ticketId: 1 } } }, 422, "input_schema_error"],
    [
      "a 5 MB body",
      { raw: JSON.stringify({ input: { ticketId: "x", transcript: "y".repeat(5 * 1024 * 1024) } }) },
      413,
      "payload_too_large",
    ],
    ["no token", { body: { input: INPUT }, token: null }, 401, "unauthorized"],
    ["a wrong token", { body: { input: INPUT }, token: "nope" }, 401, "unauthorized"],
  ])("refuses %s with a stable code", async (_name, options, status, code) => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", options as never);
    expect(r.status).toBe(status);
    expect(r.json.error?.code).toBe(code);
    expect(r.text).not.toMatch(/\n\s+at /);
  });

  it("answers an unknown workflow and an unknown run with 404", async () => {
    expect((await call("POST", "/v1/workflows/nope/runs", { body: { input: {} } })).json.error?.code).toBe("workflow_not_found");
    expect((await call("GET", "/v1/runs/run_missing")).json.error?.code).toBe("run_not_found");
  });

  it("points at the input field that is wrong", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", { body: { input: { ticketId: "x" } } });
    expect(r.json.error?.findings?.map((f) => f.path)).toContain("$");
  });

  it("answers input that does not fit with WorkflowInputValidationError: 422 input_schema_error, its message and findings, no run", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: { input: { ticketId: 7, transcript: "x" }, runId: "run_bad_input_named" },
    });
    expect(r.status).toBe(422);
    expect(r.json.error?.code).toBe("input_schema_error");
    expect(r.json.error?.message).toBe('The input does not match the input schema of "support.summarize-ticket"');
    expect(r.json.error?.findings?.[0]).toMatchObject({ severity: "error", path: "$.ticketId" });
    expect((await call("GET", "/v1/runs/run_bad_input_named")).status).toBe(404);
    const error = new WorkflowInputValidationError("w", []);
    expect([error.code, error.name, LittleError.is(error)]).toEqual(["input_schema_error", "WorkflowInputValidationError", true]);
  });
});

describe("runs, events and versions", () => {
  it("lists runs newest first with cursor pages, filtered by status", async () => {
    for (let i = 0; i < 3; i++)
      await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT, runId: `run_list_${i}` } });
    const page1 = await call("GET", "/v1/runs?limit=2&status=completed");
    const runs1 = page1.json.runs as { runId: string }[];
    expect(runs1).toHaveLength(2);
    const page2 = await call("GET", `/v1/runs?limit=2&status=completed&cursor=${page1.json.nextCursor}`);
    const ids = [...runs1, ...(page2.json.runs as { runId: string }[])].map((r) => r.runId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["run_list_0", "run_list_1", "run_list_2"]));
    expect((await call("GET", "/v1/runs?cursor=garbage")).json.error?.code).toBe("invalid_cursor");
  });

  it("pages events with after/limit and filters by type globs", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    const id = run(r.json).runId;
    const all = await call("GET", `/v1/runs/${id}/events?limit=1000`);
    const events = all.json.events as { seq: number; type: string }[];
    expect(events[0]?.type).toBe("RunRequested");
    expect(events.at(-1)?.type).toBe("RunCompleted");
    const first = await call("GET", `/v1/runs/${id}/events?limit=5`);
    expect((first.json.events as unknown[]).length).toBe(5);
    expect(first.json.nextAfter).toBe(5);
    const rest = await call("GET", `/v1/runs/${id}/events?after=5&limit=1000`);
    expect((rest.json.events as { seq: number }[])[0]?.seq).toBe(6);
    const harness = await call("GET", `/v1/runs/${id}/events?type=harness.model.*,RunCompleted&limit=1000`);
    const types = (harness.json.events as { type: string }[]).map((e) => e.type);
    expect(new Set(types)).toEqual(new Set(["harness.model.called", "harness.model.responded", "RunCompleted"]));
  });

  it("streams events as SSE until the terminal event, and resumes from Last-Event-ID", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", { body: { input: INPUT } });
    const id = run(r.json).runId;
    const res = await exports.default.fetch(`http://little.test/v1/runs/${id}/events/stream`, {
      headers: { authorization: `Bearer ${DEV}` },
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids[0]).toBe(1);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(text).toMatch(/event: RunCompleted\n/);
    const resumed = await exports.default.fetch(`http://little.test/v1/runs/${id}/events/stream`, {
      headers: { authorization: `Bearer ${DEV}`, "last-event-id": String(ids.length - 2) },
    });
    const again = [...(await resumed.text()).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(again).toEqual([ids.length - 1, ids.length]);
    const atEnd = await exports.default.fetch(`http://little.test/v1/runs/${id}/events/stream`, {
      headers: { authorization: `Bearer ${DEV}`, "last-event-id": String(ids.length) },
    });
    expect([...(await atEnd.text()).matchAll(/^id: /gm)]).toHaveLength(0);
  });

  it("cancels a run that has not ended, and reports it cancelled", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs", { body: { input: INPUT } });
    const c = await call("POST", `/v1/runs/${run(r.json).runId}/cancel`);
    expect(c.status).toBe(200);
    expect(["cancelled", "completed"]).toContain(run(c.json).status);
  });

  it("shows a version with its LWIR and lock to the tenant whose run compiled it", async () => {
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    const v = await call("GET", `/v1/versions/${run(r.json).versionId}`);
    expect(v.status).toBe(200);
    expect(v.json.version).toMatchObject({
      id: run(r.json).versionId,
      canonicalizer: "little-workflow-canonical-json@alpha",
      lwir: { kind: "Workflow" },
    });
    expect((v.json.locks as { lock: { workflowVersionId: string } }[])[0]?.lock.workflowVersionId).toBe(run(r.json).versionId);
  });

  it("lists workflows with their definition hash", async () => {
    const r = await call("GET", "/v1/workflows");
    const hash = expect.stringMatching(/^sha256:[0-9a-f]{64}$/);
    expect(r.json.workflows).toEqual([
      expect.objectContaining({ id: "billing.invoice-totals", definitionHash: hash }),
      expect.objectContaining({ id: "billing.refund", definitionHash: hash }),
      expect.objectContaining({
        id: "billing.refund-review",
        definitionHash: hash,
        signals: [
          expect.objectContaining({
            name: "manager.decision",
            schemaHash: hash,
            schema: expect.objectContaining({ type: "object", required: ["approved"] }),
          }),
        ],
        workflows: [],
      }),
      expect.objectContaining({ id: "ops.daily-digest", definitionHash: hash, signals: [] }),
      expect.objectContaining({
        id: "support.escalate",
        definitionHash: hash,
        workflows: [{ id: "billing.refund", definitionHash: hash }],
      }),
      expect.objectContaining({
        id: "support.reply-draft",
        definitionHash: hash,
        flowControl: expect.objectContaining({ concurrency: [{ key: "{{ input.customerId }}", limit: 2 }] }),
      }),
      expect.objectContaining({ id: "support.summarize-ticket", definitionHash: hash }),
      expect.objectContaining({ id: "support.triage-inbox", definitionHash: hash }),
    ]);
  });

  it("validates LWIR, with the binding pass when a workflow is named", async () => {
    const bad = await call("POST", "/v1/lwir/validate", { body: { apiVersion: "x" } });
    expect(bad.status).toBe(200);
    expect(bad.json.valid).toBe(false);
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    const lwir = ((await call("GET", `/v1/versions/${run(r.json).versionId}`)).json.version as { lwir: unknown }).lwir;
    expect((await call("POST", "/v1/lwir/validate?workflow=support.summarize-ticket", { body: lwir })).json).toEqual({
      valid: true,
      findings: [],
    });
    const renamed = { ...(lwir as object), metadata: { name: "other.flow", version: "0.1.0" } };
    const bound = await call("POST", "/v1/lwir/validate?workflow=support.summarize-ticket", { body: renamed });
    expect((bound.json.findings as { code: string }[]).map((f) => f.code)).toEqual(["binding.workflow_name_mismatch"]);
  });
});

describe("POST /v1/lwir/runs (a given LWIR, no planner)", () => {
  it("runs a version's LWIR again with no planner session, to the same version", async () => {
    const first = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    const lwir = ((await call("GET", `/v1/versions/${run(first.json).versionId}`)).json.version as { lwir: unknown }).lwir;
    const r = await call("POST", "/v1/lwir/runs?wait=20", { body: { lwir, input: { ...INPUT, ticketId: "T-43" } } });
    expect(r.status).toBe(200);
    expect(run(r.json)).toMatchObject({ status: "completed", versionId: run(first.json).versionId });
    const events = (await call("GET", `/v1/runs/${run(r.json).runId}/events?limit=1000`)).json.events as {
      type: string;
      payload: { role?: string; trigger?: { kind: string } };
    }[];
    expect(events.some((e) => e.type === "harness.session.started" && e.payload.role === "planner")).toBe(false);
    expect(events[0]?.payload.trigger?.kind).toBe("lwir");
  });

  it("Idempotency-Key: a retry returns the same run; the key with another document or input is 409 idempotency_conflict; a run id reused with another LWIR is 409", async () => {
    const first = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    const lwir = ((await call("GET", `/v1/versions/${run(first.json).versionId}`)).json.version as { lwir: Record<string, unknown> }).lwir;
    const key = `lwir-key-${crypto.randomUUID()}`;
    const headers = { "idempotency-key": key };
    const a = await call("POST", "/v1/lwir/runs", { headers, body: { lwir, input: INPUT } });
    const b = await call("POST", "/v1/lwir/runs", { headers, body: { lwir, input: INPUT } });
    expect([200, 202]).toContain(a.status);
    expect([200, 202]).toContain(b.status);
    expect(run(b.json).runId).toBe(run(a.json).runId);
    const events = (await call("GET", `/v1/runs/${run(a.json).runId}/events?limit=5`)).json.events as { payload: { trigger?: unknown } }[];
    expect(events[0]?.payload.trigger).toEqual({ kind: "lwir", id: key });
    const otherInput = await call("POST", "/v1/lwir/runs", { headers, body: { lwir, input: { ...INPUT, ticketId: "T-other" } } });
    expect(otherInput.status).toBe(409);
    expect(otherInput.json.error?.code).toBe("idempotency_conflict");
    const otherDocument = { ...lwir, metadata: { ...(lwir.metadata as object), description: "another plan" } };
    const otherLwir = await call("POST", "/v1/lwir/runs", { headers, body: { lwir: otherDocument, input: INPUT } });
    expect(otherLwir.status).toBe(409);
    expect(otherLwir.json.error?.code).toBe("idempotency_conflict");
    // The same key on the workflow's own route is another run (keys are per route).
    const viaWorkflow = await call("POST", "/v1/workflows/support.summarize-ticket/runs", { headers, body: { input: INPUT } });
    expect(run(viaWorkflow.json).runId).not.toBe(run(a.json).runId);
    // A caller's run id reused with another document is a conflict too, not the old run.
    const runId = `run_lwir_${crypto.randomUUID().slice(0, 8)}`;
    expect([200, 202]).toContain((await call("POST", "/v1/lwir/runs", { body: { lwir, input: INPUT, runId } })).status);
    const reused = await call("POST", "/v1/lwir/runs", { body: { lwir: otherDocument, input: INPUT, runId } });
    expect(reused.status).toBe(409);
    expect(reused.json.error?.code).toBe("run_id_conflict");
  });

  it("refuses invalid or unbound LWIR with 400 lwir_invalid and the findings, starting nothing", async () => {
    const invalid = await call("POST", "/v1/lwir/runs", { body: { lwir: { apiVersion: "nope" }, input: INPUT } });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error?.code).toBe("lwir_invalid");
    expect(invalid.json.error?.findings?.length).toBeGreaterThan(0);
    const first = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
    const lwir = ((await call("GET", `/v1/versions/${run(first.json).versionId}`)).json.version as { lwir: Record<string, unknown> }).lwir;
    const unbound = await call("POST", "/v1/lwir/runs", {
      body: {
        lwir: { ...lwir, permissions: { models: ["gpt-5", "gpt-4o-mini", "claude"], tools: [], secrets: [], network: [] } },
        input: INPUT,
      },
    });
    expect(unbound.status).toBe(400);
    expect(unbound.json.error?.findings?.map((f) => (f as { code?: string }).code)).toContain("binding.model_not_in_snapshot");
  });
});

describe("tenancy", () => {
  it("tenant B gets 404 for tenant A's run, events, stream, cancel and version", async () => {
    const a = await newTenantToken("tenant-a");
    const b = await newTenantToken("tenant-b");
    const r = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", {
      token: a,
      body: { input: INPUT, runId: "run_shared_name" },
    });
    expect(run(r.json).status).toBe("completed");
    for (const [method, path] of [
      ["GET", "/v1/runs/run_shared_name"],
      ["GET", "/v1/runs/run_shared_name/events"],
      ["GET", "/v1/runs/run_shared_name/events/stream"],
      ["POST", "/v1/runs/run_shared_name/cancel"],
      ["GET", `/v1/versions/${run(r.json).versionId}`],
    ] as const) {
      const denied = await call(method, path, { token: b });
      expect(denied.status, `${method} ${path}`).toBe(404);
    }
    expect((await call("GET", "/v1/runs", { token: b })).json.runs).toEqual([]);
    // B choosing the same run id gets its own run, not A's.
    const own = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", {
      token: b,
      body: { input: { ...INPUT, ticketId: "B" }, runId: "run_shared_name" },
    });
    expect(own.status).toBe(200);
    expect(run(own.json).output).toBeDefined();
    expect(run(own.json).runId).toBe("run_shared_name");
  });

  it("creating tokens needs the admin token", async () => {
    expect((await call("POST", "/v1/tokens", { body: { tenant: "x" } })).status).toBe(401);
    expect((await call("POST", "/v1/tokens", { token: "test-admin-token", body: { tenant: "Bad Name" } })).json.error?.code).toBe(
      "invalid_request",
    );
  });
});

describe("webhooks (Standard Webhooks)", () => {
  const hook = new Webhook(SECRET);
  const sign = (id: string, body: string, at = new Date()) => ({
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": hook.sign(id, at, body),
  });
  const body = JSON.stringify(INPUT);

  it("starts a run from a signed delivery (202), and a repeat of the same webhook-id is the same run (200)", async () => {
    const first = await call("POST", "/v1/hooks/support.summarize-ticket", { token: null, raw: body, headers: sign("msg_1", body) });
    expect(first.status).toBe(202);
    const again = await call("POST", "/v1/hooks/support.summarize-ticket", { token: null, raw: body, headers: sign("msg_1", body) });
    expect(again.status).toBe(200);
    expect(run(again.json).runId).toBe(run(first.json).runId);
    const listed = await call("GET", `/v1/runs/${run(first.json).runId}`);
    expect(listed.status).toBe(200);
  });

  it("accepts a rotated key among several signatures", async () => {
    const old = new Webhook("whsec_dGhpcyBpcyBhbiBvbGQga2V5IHRoYXQgaXMgcm90YXRlZA==");
    const h = sign("msg_rot", body);
    const at = new Date(Number(h["webhook-timestamp"]) * 1000);
    h["webhook-signature"] = `${old.sign("msg_rot", at, body)} ${h["webhook-signature"]}`;
    expect((await call("POST", "/v1/hooks/support.summarize-ticket", { token: null, raw: body, headers: h })).status).toBe(202);
  });

  it.each([
    [
      "a bad signature",
      () => ({ ...sign("msg_bad", body), "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" }),
      401,
      "webhook_signature_invalid",
    ],
    ["a body changed after signing", () => sign("msg_tamper", `${body} `), 401, "webhook_signature_invalid"],
    ["an expired timestamp", () => sign("msg_old", body, new Date(Date.now() - 6 * 60_000)), 401, "webhook_timestamp_invalid"],
    ["a future timestamp", () => sign("msg_future", body, new Date(Date.now() + 6 * 60_000)), 401, "webhook_timestamp_invalid"],
    ["missing headers", () => ({ "webhook-id": "msg_x" }), 400, "webhook_headers_missing"],
  ])("refuses %s", async (_name, headers, status, code) => {
    const r = await call("POST", "/v1/hooks/support.summarize-ticket", {
      token: null,
      raw: body,
      headers: headers() as Record<string, string>,
    });
    expect(r.status).toBe(status);
    expect(r.json.error?.code).toBe(code);
  });

  it("turns one delivery sent 20 times concurrently into exactly one run", async () => {
    const headers = sign("msg_storm", body);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("POST", "/v1/hooks/support.summarize-ticket", { token: null, raw: body, headers })),
    );
    const ids = new Set(answers.map((a) => run(a.json).runId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
  });
});

describe("OpenAPI", () => {
  it("serves the LWIR JSON Schema: 2020-12, every top-level field, one branch per step kind", async () => {
    const r = await call("GET", "/v1/lwir/schema");
    expect(r.status).toBe(200);
    const schema = r.json as { $schema: string; properties: Record<string, unknown> };
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(Object.keys(schema.properties)).toEqual(["apiVersion", "kind", "metadata", "input", "output", "permissions", "steps"]);
    expect(JSON.stringify(schema)).toContain('"enum":["code.run"]');
  });

  it("describes every route from the same schemas", async () => {
    const r = await call("GET", "/v1/openapi.json", { token: null });
    const doc = r.json as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/v1/definitions/{hash}",
        "/v1/definitions/{hash}/approve",
        "/v1/definitions/{hash}/pin",
        "/v1/workflows/{workflowId}/definition",
        "/v1/workflows/{workflowId}/queues",
        "/v1/workflows/{workflowId}/anchors",
        "/v1/hooks/{workflowId}",
        "/v1/hooks/{workflowId}/runs/{runId}",
        "/v1/runs/{runId}/triggers",
        "/v1/runs/{runId}/supersede",
        "/v1/workflows/{workflowId}/sections",
        "/v1/runs/{runId}/approvals",
        "/v1/runs/{runId}/approvals/{approvalId}",
        "/v1/secrets",
        "/v1/secrets/{name}",
        "/v1/lwir/runs",
        "/v1/lwir/schema",
        "/v1/lwir/validate",
        "/v1/runs",
        "/v1/runs/{runId}",
        "/v1/runs/{runId}/cancel",
        "/v1/runs/{runId}/restart",
        "/v1/runs/{runId}/fork",
        "/v1/runs/{runId}/compare/{otherRunId}",
        "/v1/runs/{runId}/pause",
        "/v1/runs/{runId}/resume",
        "/v1/runs/{runId}/events",
        "/v1/runs/{runId}/events/stream",
        "/v1/tokens",
        "/v1/tokens/{tokenId}",
        "/v1/versions/{versionId}",
        "/v1/workflows",
        "/v1/workflows/{workflowId}/runs",
        "/v1/runs/{runId}/signals",
        "/v1/runs/bulk",
        "/v1/runs/bulk/{jobId}",
        "/v1/tenants/{tenant}/retention",
        "/v1/runs/{runId}/stream",
      ].sort(),
    );
  });
});
