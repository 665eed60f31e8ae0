import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { RUN_EVENT_TYPES } from "../../../src/ports/run-event-types.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { runStub } from "../../support/drive.ts";
import { api } from "./support/api-call.ts";

// Issue 15, finding 5: `GET /v1/runs/:id/events?type=T0,…,T119` answered 500, because the event
// log bound one SQL parameter per type and overflowed SQLite's limit. Now the filter names only
// event types of the union (400 `event_type_unknown` otherwise), is deduplicated, and the run
// object's query binds one JSON array whatever the count.

const INPUT = { ticketId: "T-5", transcript: "The export button does nothing." };

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

async function completedRun(): Promise<string> {
  const r = await api("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: JSON.stringify({ input: INPUT }) });
  expect(r.status, r.text).toBeLessThan(300);
  const run = r.json.run as { runId: string; status: string };
  expect(run.status).toBe("completed");
  return run.runId;
}

const eventsOf = (r: { json: Record<string, unknown> }) => r.json.events as { seq: number; type: string }[];

describe("events ?type= filter", () => {
  it("120 unknown types: 400 event_type_unknown naming them, not a 500", async () => {
    const runId = await completedRun();
    const types = Array.from({ length: 120 }, (_, i) => `T${i}`).join(",");
    const r = await api("GET", `/v1/runs/${runId}/events?type=${types}`);
    expect(r.status, r.text).toBe(400);
    expect(r.code).toBe("event_type_unknown");
    expect((r.json.error as { message: string }).message).toContain('"T0"');
    // One unknown entry among known ones is refused too.
    const mixed = await api("GET", `/v1/runs/${runId}/events?type=RunCompleted,Nope*`);
    expect(mixed.status).toBe(400);
    expect(mixed.code).toBe("event_type_unknown");
  });

  it("known types repeated past any parameter limit: deduplicated, the same page as once", async () => {
    const runId = await completedRun();
    const all = await api("GET", `/v1/runs/${runId}/events?limit=1000`);
    const once = await api("GET", `/v1/runs/${runId}/events?type=RunRequested,harness.*,RunCompleted&limit=1000`);
    expect(once.status, once.text).toBe(200);
    const expected = eventsOf(all).filter((e) => e.type === "RunRequested" || e.type.startsWith("harness.") || e.type === "RunCompleted");
    expect(eventsOf(once).map((e) => e.seq)).toEqual(expected.map((e) => e.seq));
    expect(expected.length).toBeGreaterThan(3);
    // 140 entries (the query's 1,000-character cap), every one a repeat.
    const repeated = Array.from({ length: 140 }, (_, i) => ["R*", "h*", "RunCompleted", "S*"][i % 4]).join(",");
    const many = await api("GET", `/v1/runs/${runId}/events?type=${repeated}&limit=1000`);
    expect(many.status, many.text).toBe(200);
    const wanted = eventsOf(all).filter((e) => /^(R|h|S)/.test(e.type));
    expect(eventsOf(many).map((e) => e.seq)).toEqual(wanted.map((e) => e.seq));
  });

  it("the run object's log answers any number of patterns (no bound parameter per type)", async () => {
    const runId = await completedRun();
    // Straight to the run object (the API caps the query string): thousands of exact types and prefixes.
    const client = runStub(runId, "dev");
    const all = await client.events({ after: 0, limit: 1000 });
    const types = [
      ...Array.from({ length: 3000 }, (_, i) => `T${i}`),
      ...Array.from({ length: 3000 }, (_, i) => `P${i}*`),
      ...RUN_EVENT_TYPES.filter((t) => t.startsWith("Step")),
      "harness.model.*",
    ];
    const page = await client.events({ after: 0, limit: 1000, types });
    const expected = all.filter((e) => e.type.startsWith("Step") || e.type.startsWith("harness.model."));
    expect(page.map((e) => e.seq)).toEqual(expected.map((e) => e.seq));
    expect(expected.length).toBeGreaterThan(0);
  });
});
