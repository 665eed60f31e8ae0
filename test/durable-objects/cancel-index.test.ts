/**
 * Issue 32: a cancel is answered by the run's object without a round trip to D1 (one region for
 * every caller). Its `RunCancelled` is durable when the caller hears 200; the run's index row is
 * written after the answer, and a lost write is repaired by the object's alarm (the `indexDue`
 * mark goes into the cancel's own sync), as a start's row is (index-after-ack.test.ts).
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import type { RunIndex } from "../../src/ports/run-index.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call } from "../api/support/api-call.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { indexWithUpsert } from "../support/index-with-upsert.ts";
import { signalWaitingWorkflow, signalWaitLwir } from "../support/signal-waiting.ts";

const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const waiting = signalWaitingWorkflow("test.cancel-index");

beforeEach(() => overrideWiring({ models: OFFLINE, workflows: catalogOf([waiting]) }));
afterEach(() => overrideWiring({}));

/** The D1 index, with this run's `cancelled` row write held until `release` (or for good). */
function holdingCancelledRow(runId: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((done) => {
    release = done;
  });
  const wrap = (d1: RunIndex): RunIndex =>
    indexWithUpsert(d1, async (entry, upsert) => {
      if (entry.runId === runId && entry.status === "cancelled") await released;
      return upsert(entry);
    });
  return { wrap, release: () => release() };
}

async function rowStatus(runId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT status FROM runs WHERE run_id = ?").bind(runId).first<{ status: string }>();
  return row?.status ?? null;
}

/** A run of the dev tenant waiting for its signal, its row written. */
async function waitingRun(): Promise<string> {
  const lwir = await signalWaitLwir(waiting);
  const started = await call("POST", "/v1/lwir/runs", { body: { lwir, input: {} } });
  expect(started.status, started.text).toBe(202);
  const runId = (started.json.run as { runId: string }).runId;
  for (let i = 0; i < 200 && (await runStub(runId, "dev").status()).waitReason !== "signal"; i++)
    await runStub(runId, "dev").waitForEnd(20);
  for (let i = 0; i < 200 && (await rowStatus(runId)) !== "waiting"; i++) await new Promise((done) => setTimeout(done, 20));
  expect(await rowStatus(runId)).toBe("waiting");
  return runId;
}

describe("a cancel's index row is written after its answer", () => {
  it("answers while the row's write is still held; the row says cancelled once it lands", async () => {
    const runId = await waitingRun();
    const held = holdingCancelledRow(runId);
    overrideWiring({ models: OFFLINE, workflows: catalogOf([waiting]), runs: held.wrap });
    const cancelled = await call("POST", `/v1/runs/${runId}/cancel`, { body: { reason: "not needed" } });
    expect(cancelled.status).toBe(200);
    expect((cancelled.json.run as { status: string }).status).toBe("cancelled");
    // Answered; the row is still the one from before.
    expect(await rowStatus(runId)).toBe("waiting");
    held.release();
    await runInDurableObject(rawRunStub(runId, "dev"), async (instance) => {
      await (instance as unknown as { indexing: Promise<void> | null }).indexing;
    });
    expect(await rowStatus(runId)).toBe("cancelled");
    // The repair alarm is cleared once the row has landed: an ended run keeps no alarm.
    expect(await runDurableObjectAlarm(rawRunStub(runId, "dev"))).toBe(false);
    const listed = await call("GET", "/v1/runs?status=cancelled&limit=200");
    expect((listed.json.runs as { runId: string }[]).map((r) => r.runId)).toContain(runId);
  });

  it("a row write lost with the object (a crash after the answer) is written by the object's alarm", async () => {
    const runId = await waitingRun();
    const held = holdingCancelledRow(runId);
    overrideWiring({ models: OFFLINE, workflows: catalogOf([waiting]), runs: held.wrap });
    expect((await call("POST", `/v1/runs/${runId}/cancel`, { body: {} })).status).toBe(200);
    // The object dies with the write in flight (it never lands): the mark and the alarm survive it.
    await runInDurableObject(rawRunStub(runId, "dev"), (_instance, state) => state.abort()).catch(() => undefined);
    overrideWiring({ models: OFFLINE, workflows: catalogOf([waiting]) });
    expect(await rowStatus(runId)).toBe("waiting");
    expect(await runDurableObjectAlarm(rawRunStub(runId, "dev"))).toBe(true);
    expect(await rowStatus(runId)).toBe("cancelled");
    expect((await runStub(runId, "dev").status()).status).toBe("cancelled");
  });
});
