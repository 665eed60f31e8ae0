import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RunObject } from "../../durable-objects/run.ts";
import { viewRun } from "../../src/engine/run-host.ts";
import { RUN_STATE_CHECKPOINT_EVERY } from "../../src/engine/run-state.ts";
import { systemClock } from "../../src/ports/clock.ts";
import type { NewRunEvent } from "../../src/ports/run-events.ts";
import { runObjectLog, wire } from "../../src/wiring.ts";
import { rawRunStub } from "../support/drive.ts";

const EVENTS = 2_500;
const FAR = Date.now() + 86_400_000;

/**
 * A section run's log of {@link EVENTS} events: what matters is at its start (the request, an
 * occurrence run and one queued, an approval asked), then steps to make it long.
 */
function longSection(): NewRunEvent[] {
  const events: NewRunEvent[] = [
    { type: "RunRequested", payload: { workflowId: "support.triage", input: { n: 1 }, trigger: { kind: "http" }, tenant: "default" } },
    { type: "OccurrenceStarted", payload: { occurrenceId: "o1" } },
    { type: "OccurrenceCompleted", payload: { occurrenceId: "o1", output: { done: 1 } } },
    { type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: { n: 2 }, trigger: { kind: "webhook", id: "w2" } } },
    {
      type: "ApprovalRequested",
      payload: {
        approvalId: "ap1",
        stepPath: "c1/gate",
        tool: "refund",
        args: { amount: 5 },
        argsHash: `sha256:${"b".repeat(64)}`,
        expiresAt: FAR,
      },
    },
  ];
  for (let i = 0; events.length < EVENTS; i++)
    events.push(
      i % 2 === 0
        ? { type: "StepStarted", payload: { stepPath: `c1/s${i >> 1}`, attempt: 1 } }
        : { type: "StepSucceeded", payload: { stepPath: `c1/s${i >> 1}`, attempt: 1, output: { i } } },
    );
  return events;
}

describe("the run object reads its state from the fold checkpoint and the events after it", () => {
  it("status() and end() answer the same once the events the checkpoint covers are gone from the table", async () => {
    const runId = `run_checkpoint_${crypto.randomUUID().replaceAll("-", "")}`;
    await runInDurableObject(rawRunStub(runId), async (instance: RunObject, state) => {
      state.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('runId', ?), ('tenant', 'default')", runId);
      // The object's own log (the wiring's, with the run state fold), appended to as a run would.
      const log = runObjectLog(state, runId, systemClock, () => {});
      const events = longSection();
      for (let i = 0; i < events.length; i += 100) await log.append(events.slice(i, i + 100));
      const checkpoint = await log.checkpoint();
      expect(checkpoint?.seq).toBe(2 * RUN_STATE_CHECKPOINT_EVERY);

      // The view of the whole log, folded at once.
      const now = Date.now();
      const full = await viewRun(runId, await log.all(), wire(env).blobsFor, now);
      expect(full).toMatchObject({ workflowId: "support.triage", eventCount: EVENTS, status: "waiting", waitReason: "approval" });
      expect(full.approvals?.map((a) => a.approvalId)).toEqual(["ap1"]);
      expect(full.occurrences).toMatchObject({ total: 2, completed: 1, pending: 1 });

      // Every event the checkpoint covers but the request (the redactor's one read) is removed
      // before the object first reads its log: a reader of the whole log would now see a run with
      // no occurrence and no approval.
      state.storage.sql.exec("DELETE FROM events WHERE seq > 1 AND seq <= ?", checkpoint?.seq ?? 0);
      expect(await instance.status()).toEqual(full);

      // A command folds the same way: only a section may be ended as a waiting section.
      const ended = await instance.end({ causeCode: "section_superseded", message: "superseded", only: { waitingSection: true } });
      expect(ended).toEqual({
        ok: true,
        ended: true,
        pending: [{ occurrenceId: "o2", input: { n: 2 }, trigger: { kind: "webhook", id: "w2" } }],
      });
      expect(await instance.status()).toMatchObject({ status: "failed", eventCount: EVENTS + 1, cause: { code: "section_superseded" } });
    });
  });
});
