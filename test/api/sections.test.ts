import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { sectionLwir, sectionWorkflow } from "../support/section-workflow.ts";
import { call, runEvents, tenantToken } from "./support/api-call.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const continuing = sectionWorkflow("api.section", "continue");

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([continuing, { definition: summarizeTicket, tools: {} }]),
  }),
);
afterEach(() => overrideWiring({}));

type RunBody = {
  runId: string;
  status: string;
  waitReason?: string;
  occurrences?: { total: number; latest: { occurrenceId: string; status: string; output?: unknown }[] };
};

async function startSection(): Promise<string> {
  const r = await call("POST", "/v1/lwir/runs?wait=20", {
    body: { lwir: await sectionLwir(continuing), input: { text: "first", fail: false } },
  });
  expect(r.status).toBe(202); // a section run waits; it has not ended
  const run = r.json.run as RunBody;
  expect(run).toMatchObject({ status: "waiting", waitReason: "trigger" });
  // The run index says the same (the slice wrote the row before the wait returned).
  const listed = (await call("GET", "/v1/runs?status=waiting&waitReason=trigger&limit=200")).json.runs as RunBody[];
  expect(listed.find((l) => l.runId === run.runId)).toMatchObject({ status: "waiting", waitReason: "trigger" });
  return run.runId;
}

describe("POST /v1/runs/:runId/triggers", () => {
  it("queues occurrences that run the locked body with each payload; failures re-arm under 'continue'", async () => {
    const runId = await startSection();
    const second = await call("POST", `/v1/runs/${runId}/triggers?wait=20`, { body: { input: { text: "second", fail: true } } });
    expect(second.status).toBe(202);
    expect(second.json).toMatchObject({ occurrenceId: "o2", created: true });
    expect(second.json.run as RunBody).toMatchObject({ status: "waiting", waitReason: "trigger" });
    const third = await call("POST", `/v1/runs/${runId}/triggers?wait=20`, {
      body: { input: { text: "third", fail: false } },
      headers: { "idempotency-key": "t-3" },
    });
    const run = third.json.run as RunBody;
    expect(run.occurrences?.latest.map((o) => [o.occurrenceId, o.status])).toEqual([
      ["o1", "completed"],
      ["o2", "failed"],
      ["o3", "completed"],
    ]);
    expect(run.occurrences?.latest[2]?.output).toEqual({ echoed: "THIRD" });
    const repeat = await call("POST", `/v1/runs/${runId}/triggers`, {
      body: { input: { text: "third", fail: false } },
      headers: { "idempotency-key": "t-3" },
    });
    expect(repeat.status).toBe(200);
    expect(repeat.json).toMatchObject({ occurrenceId: "o3", created: false });
    // One planner-free version for every occurrence.
    const events = await runEvents(runId);
    expect(events.filter((e) => e.type === "WorkflowVersionRegistered")).toHaveLength(1);
    expect(events.filter((e) => e.type === "harness.session.started")).toHaveLength(0);
  });

  it("refuses a payload against the schema (422), a run that is not a section (409), and a run that ended (409)", async () => {
    const runId = await startSection();
    const bad = await call("POST", `/v1/runs/${runId}/triggers`, { body: { input: { text: 5 } } });
    expect(bad.status).toBe(422);
    expect(bad.json.error?.code).toBe("input_schema_error");
    const plain = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", {
      body: { input: { ticketId: "T", transcript: "x" } },
    });
    const notSection = await call("POST", `/v1/runs/${(plain.json.run as RunBody).runId}/triggers`, { body: { input: {} } });
    expect(notSection.status).toBe(409);
    expect(notSection.json.error?.code).toBe("run_not_a_section");
    expect((await call("POST", `/v1/runs/${runId}/cancel`)).status).toBe(200);
    const ended = await call("POST", `/v1/runs/${runId}/triggers`, { body: { input: { text: "late", fail: false } } });
    expect(ended.status).toBe(409);
    expect(ended.json.error?.code).toBe("run_ended");
    expect((await call("POST", "/v1/runs/nope/triggers", { body: { input: {} } })).status).toBe(404);
  });

  it("a signed webhook addressed to the run queues one occurrence per webhook-id", async () => {
    const runId = await startSection();
    const body = JSON.stringify({ text: "hooked", fail: false });
    const send = () => {
      const id = "msg_section_1";
      const now = new Date();
      const signature = new Webhook(SECRET).sign(id, now, body);
      return call("POST", `/v1/hooks/api.section/runs/${runId}`, {
        token: null,
        headers: {
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": signature,
          "content-type": "application/json",
        },
        body: JSON.parse(body),
      });
    };
    const first = await send();
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ occurrenceId: "o2", created: true });
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ occurrenceId: "o2", created: false });
    const forged = await call("POST", `/v1/hooks/api.section/runs/${runId}`, {
      token: null,
      headers: { "webhook-id": "x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
      body: { text: "forged", fail: false },
    });
    expect(forged.status).toBe(401);
  });

  it("the section's policy survives the projection served by GET /v1/definitions/:hash", async () => {
    const live = await call("GET", "/v1/workflows/api.section/definition");
    expect(live.json.snapshot).toMatchObject({ section: { kind: "onTrigger", onBodyFailure: "continue" } });
    const byHash = await call("GET", `/v1/definitions/${live.json.definitionHash as string}`);
    expect(byHash.json.snapshot).toEqual(live.json.snapshot);
  });
});

describe("GET /v1/workflows/:workflowId/sections", () => {
  it("pages with nextCursor, newest first across statuses, like GET /v1/runs", async () => {
    const token = await tenantToken(`secpage_${crypto.randomUUID().slice(0, 8)}`);
    const started: string[] = [];
    for (const text of ["a", "b", "c"]) {
      const r = await call("POST", "/v1/lwir/runs?wait=20", {
        token,
        body: { lwir: await sectionLwir(continuing), input: { text, fail: false } },
      });
      started.push((r.json.run as RunBody).runId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call("GET", `/v1/workflows/api.section/sections?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token });
      expect(r.status, r.text).toBe(200);
      const sections = r.json.sections as { runId: string; createdAt: number }[];
      expect(sections.length).toBeLessThanOrEqual(2);
      seen.push(...sections.map((s) => s.runId));
      cursor = r.json.nextCursor as string | null;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect([...seen].sort()).toEqual([...started].sort());
    expect(new Set(seen).size).toBe(3);
    const bad = await call("GET", "/v1/workflows/api.section/sections?cursor=not-a-cursor", { token });
    expect([bad.status, bad.json.error?.code]).toEqual([400, "invalid_cursor"]);
  }, 60_000);
});
