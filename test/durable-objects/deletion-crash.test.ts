import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { sweepRetention } from "../../src/engine/deletion/retention-sweep.ts";
import type { RunDeletions } from "../../src/ports/run-deletions.ts";
import type { RunHandles } from "../../src/ports/run-handle.ts";
import { overrideWiring, wire } from "../../src/wiring.ts";
import { call } from "../api/support/api-call.ts";
import { runData } from "../api/support/run-data.ts";

/**
 * A deletion that stops at each of its boundaries (the Worker dies between two steps: tombstone,
 * object purge, blobs, rows, done; or the run object dies inside its purge, its storage wiped and
 * its deleted marker not yet written) is finished by the next attempt — the same DELETE, or the
 * cron's retention sweep — with the same result: nothing of the run left, one tombstone, `done`.
 */
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const INPUT = { ticketId: "T-90", transcript: "Crash while deleting." };
const OTHER_INPUT = { ticketId: "T-91", transcript: "Another run under a deleted run's id." };
const SUMMARIZE = "/v1/workflows/support.summarize-ticket/runs";

type Boundary = "after tombstone" | "inside the object's purge" | "after object purge" | "after rows" | "before done";

let crashAt: Boundary | null = null;
function crash(at: Boundary): void {
  if (crashAt !== at) return;
  crashAt = null;
  throw new Error(`crash injected ${at}`);
}

beforeEach(() =>
  overrideWiring({
    models: OFFLINE,
    // The run object dies between wiping its storage and writing its deleted marker (run-purge.ts).
    duringPurge: (ctx) => {
      if (crashAt !== "inside the object's purge") return;
      crashAt = null;
      ctx.abort("crash injected inside the object's purge");
    },
    deletions: (d: RunDeletions): RunDeletions => ({
      ...bind(d),
      begin: async (t) => {
        const written = await d.begin(t);
        crash("after tombstone");
        return written;
      },
      purgeRows: async (tenant, runId) => {
        await d.purgeRows(tenant, runId);
        crash("after rows");
      },
      finish: async (tenant, runId) => {
        crash("before done");
        await d.finish(tenant, runId);
      },
    }),
    runHandles: (handles: RunHandles): RunHandles => ({
      ...handles,
      jurisdictionsEnforced: () => handles.jurisdictionsEnforced(),
      open: (tenant, runId, placement) => {
        const handle = handles.open(tenant, runId, placement);
        return {
          ...handle,
          purge: async (at) => {
            const purged = await handle.purge(at);
            crash("after object purge");
            return purged;
          },
        };
      },
    }),
  }),
);
afterEach(() => {
  crashAt = null;
  overrideWiring({});
});

function bind(d: RunDeletions): RunDeletions {
  return {
    tombstone: (t, r) => d.tombstone(t, r),
    begin: (t) => d.begin(t),
    purgeRows: (t, r) => d.purgeRows(t, r),
    finish: (t, r) => d.finish(t, r),
    pending: (l) => d.pending(l),
    expired: (q) => d.expired(q),
    retention: (t) => d.retention(t),
    setRetention: (t, days, at) => d.setRetention(t, days, at),
  };
}

async function endedRun(): Promise<string> {
  const r = await call("POST", `${SUMMARIZE}?wait=30`, { body: { input: INPUT } });
  expect(r.status, r.text).toBe(200);
  return (r.json.run as { runId: string }).runId;
}

async function expectGone(runId: string): Promise<void> {
  const left = await runData("dev", runId);
  expect(left.object).toEqual({ tables: { meta: 1 }, keys: 0, alarm: null });
  expect(left.blobs).toEqual([]);
  expect(Object.values(left.rows).every((n) => n === 0)).toBe(true);
  const tombs = await env.DB.prepare("SELECT state FROM run_tombstones WHERE tenant = 'dev' AND run_id = ?")
    .bind(runId)
    .all<{ state: string }>();
  expect(tombs.results).toEqual([{ state: "done" }]);
  expect((await call("GET", `/v1/runs/${runId}`)).json.error?.code).toBe("run_deleted");
}

describe("a deletion interrupted at each boundary is finished by the next attempt", () => {
  const boundaries: Boundary[] = ["after tombstone", "inside the object's purge", "after object purge", "after rows", "before done"];
  for (const boundary of boundaries) {
    it(`${boundary}: the same DELETE again finishes it`, async () => {
      const runId = await endedRun();
      crashAt = boundary;
      const first = await call("DELETE", `/v1/runs/${runId}`);
      expect(first.status, first.text).toBe(500);
      expect(crashAt).toBeNull();
      const again = await call("DELETE", `/v1/runs/${runId}`);
      expect(again.status, again.text).toBe(200);
      await expectGone(runId);
    });
  }

  it("inside the object's purge: until the retry the run id starts nothing; the retry deletes it for good", async () => {
    const runId = await endedRun();
    crashAt = "inside the object's purge";
    expect((await call("DELETE", `/v1/runs/${runId}`)).status).toBe(500);
    expect(crashAt).toBeNull();
    // Before anyone retries: a start with the run's id must not make a new run under it.
    const early = await call("POST", SUMMARIZE, { body: { input: OTHER_INPUT, runId } });
    expect(early.status, early.text).not.toBeLessThan(400);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM runs WHERE run_id = ? AND status != 'completed'").bind(runId).first("n")).toBe(
      0,
    );
    const again = await call("DELETE", `/v1/runs/${runId}`);
    expect(again.status, again.text).toBe(200);
    await expectGone(runId);
    // And afterwards: 410, and the id is never reused.
    const late = await call("POST", SUMMARIZE, { body: { input: OTHER_INPUT, runId } });
    expect({ status: late.status, code: late.json.error?.code }).toEqual({ status: 410, code: "run_deleted" });
    await expectGone(runId);
  });

  it("after object purge: the cron's retention sweep finishes a pending deletion nobody retried", async () => {
    const runId = await endedRun();
    crashAt = "after object purge";
    expect((await call("DELETE", `/v1/runs/${runId}`)).status).toBe(500);
    const report = await sweepRetention(wire(env), { defaultDays: null, pageSize: 500 });
    expect(report.resumed).toBeGreaterThanOrEqual(1);
    await expectGone(runId);
  });
});
