import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub } from "../support/drive.ts";
import { call } from "./support/api-call.ts";

/**
 * A run whose stored log holds a row that does not parse (written straight into the run object's
 * SQLite, as a disk fault or a bad hand edit would leave it): the API answers every read that
 * reaches the row with the stable `event_log_corrupt` code and the row's seq, never a crash, a
 * stack trace or a guess.
 */

/** The dev token's tenant: its run objects are named `dev:<runId>`. */
const TENANT = "dev";
const INPUT = { ticketId: "T-7", transcript: "Invoices are doubled since the upgrade." };

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

/** Runs the seed example to its end through the API; its run id and how many events it logged. */
async function endedRun(): Promise<{ runId: string; last: number }> {
  const started = await call("POST", "/v1/workflows/support.summarize-ticket/runs?wait=20", { body: { input: INPUT } });
  expect(started.status).toBe(200);
  const runId = (started.json.run as { runId: string }).runId;
  const last = await runInDurableObject(
    rawRunStub(runId, TENANT),
    async (_instance, state) => state.storage.sql.exec<{ n: number }>("SELECT max(seq) AS n FROM events").one().n,
  );
  return { runId, last };
}

/** Puts a row into the run object's log as it is, past `append`. */
async function writeRow(runId: string, row: { seq: number; type: string; payload: string }): Promise<void> {
  await runInDurableObject(rawRunStub(runId, TENANT), async (_instance, state) => {
    state.storage.sql.exec("INSERT OR REPLACE INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)", row.seq, row.type, 1, row.payload);
  });
}

describe("a run whose event log holds a corrupt row", () => {
  it("GET /v1/runs/{id} and /events answer 500 event_log_corrupt with the row's seq; the rows before it still page", async () => {
    const { runId, last } = await endedRun();
    const bad = last + 1;
    await writeRow(runId, { seq: bad, type: "StepStarted", payload: '{"stepPath":"summarize"}' });

    for (const path of [`/v1/runs/${runId}`, `/v1/runs/${runId}/events`, `/v1/runs/${runId}/events?after=${last - 1}&limit=5`]) {
      const r = await call("GET", path);
      expect([path, r.status, r.json.error?.code]).toEqual([path, 500, "event_log_corrupt"]);
      expect(r.json.error?.message).toContain(`corrupt at seq ${bad}`);
      expect(r.json.error?.message).toContain("attempt");
      expect(r.text).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
    }
    const before = await call("GET", `/v1/runs/${runId}/events?limit=${last}`);
    expect(before.status).toBe(200);
    expect((before.json.events as { seq: number }[]).map((e) => e.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  });

  it("answers the same for a row that is not JSON, and for a type the union lacks", async () => {
    const { runId, last } = await endedRun();
    await writeRow(runId, { seq: last + 1, type: "RunCancelled", payload: '{"reason":' });
    const notJson = await call("GET", `/v1/runs/${runId}/events?after=${last}`);
    expect([notJson.status, notJson.json.error?.code]).toEqual([500, "event_log_corrupt"]);
    expect(notJson.json.error?.message).toContain("not JSON");

    await writeRow(runId, { seq: last + 1, type: "RunTeleported", payload: "{}" });
    const unknown = await call("GET", `/v1/runs/${runId}`);
    expect([unknown.status, unknown.json.error?.code]).toEqual([500, "event_log_corrupt"]);
    expect(unknown.json.error?.message).toContain('unknown event type "RunTeleported"');
  });
});
