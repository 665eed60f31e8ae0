import { describe, expect, it } from "vitest";
import { MemoryBlobStore } from "../../src/adapters/memory/memory-blob-store.ts";
import { viewRun } from "../../src/engine/run-host/run-view.ts";
import { deriveRunState } from "../../src/engine/run-state.ts";
import { reduceRunEvents } from "../../src/inspector/run-view.ts";
import type { NewRunEvent } from "../../src/ports/run-events.ts";
import { completedRun, logOf } from "../inspector/events.ts";

const digest = `sha256:${"a".repeat(64)}` as const;
const blobs = new MemoryBlobStore();
const view = (events: readonly NewRunEvent[], now = 5_000) => viewRun("run_test", logOf(events), () => blobs, now);

/** Compiled and running step `c1/a`. */
const running = completedRun.slice(0, 9);

describe("the API's run view (run host) reads the engine's fold", () => {
  it("shows a section's occurrences by the fold's rule: a queued trigger before the first occurrence started counts", async () => {
    const queued: NewRunEvent[] = [
      ...completedRun.slice(0, 7),
      { type: "OccurrenceQueued", payload: { occurrenceId: "o2", input: { q: 2 }, trigger: { kind: "http", id: "k2" } } },
    ];
    const events = logOf(queued);
    expect(deriveRunState(events).section).toBe(true);
    expect(reduceRunEvents(events).state.section).toBe(true);
    // Before: only a run with an OccurrenceStarted listed occurrences, so this one showed none.
    expect((await view(queued)).occurrences).toMatchObject({ total: 2, pending: 2, completed: 0 });
    expect((await view(completedRun)).occurrences).toBeUndefined();
  });

  it("says why a run waits and until when: an approval until it expires, then running once decided", async () => {
    const asked: NewRunEvent = {
      type: "ApprovalRequested",
      payload: { approvalId: "apr_1", stepPath: "c1/a", tool: "refund", args: {}, argsHash: digest, expiresAt: 90_000 },
    };
    const waiting = await view([...running, asked]);
    expect(waiting).toMatchObject({ status: "waiting", waitReason: "approval", waitingUntil: 90_000 });
    expect(waiting.approvals?.[0]).toMatchObject({ approvalId: "apr_1", status: "waiting_for_approval" });
    const decided = await view([
      ...running,
      asked,
      { type: "ApprovalDecided", payload: { approvalId: "apr_1", decision: "approved", argsHash: digest } },
    ]);
    expect(decided.status).toBe("running");
    expect([decided.waitReason, decided.waitingUntil]).toEqual([undefined, undefined]);
    expect((await view(completedRun)).status).toBe("completed");
  });
});
