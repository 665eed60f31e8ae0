import { describe, expect, it } from "vitest";
import { RunLogLines } from "../../../src/engine/observability/run-log-lines.ts";
import { traceIdOf } from "../../../src/engine/observability/trace-context.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import type { SavedHistory } from "../../histories/record-scenario.ts";

const saved = import.meta.glob("../../histories/golden-composite.json", { eager: true, import: "default" }) as Record<string, SavedHistory>;
const golden = Object.values(saved)[0] as SavedHistory;
const events = golden.events as RunEvent[];

describe("one log line per run transition", () => {
  const lines = new RunLogLines(golden.runId).linesOf(events);

  it("says requested, started, each step's end and the end, with the run's ids, status, duration and usage", () => {
    const transitions = lines.map((l) => l.transition);
    expect(transitions[0]).toBe("requested");
    expect(transitions[1]).toBe("started");
    expect(transitions.at(-1)).toBe("ended");
    expect(transitions.filter((t) => t === "step_ended")).toHaveLength(events.filter((e) => e.type === "StepSucceeded").length);
    const end = lines.at(-1);
    expect(end).toMatchObject({
      status: "completed",
      workflowId: "reliability.golden",
      tenant: "default",
      traceId: traceIdOf(golden.runId, null),
    });
    expect(end?.versionId).toMatch(/^wfver_/);
    expect(end?.usage?.totalTokens).toBeGreaterThan(0);
    expect(end?.durationMs).toBe((events.at(-1)?.at ?? 0) - (events[0]?.at ?? 0));
  });

  it("never carries inputs or outputs", () => {
    const text = JSON.stringify(lines);
    expect(text).not.toContain("T-42");
    expect(text).not.toContain("recipients");
  });

  it("a fresh object seeded from the log's start names the run the same way", () => {
    const fresh = new RunLogLines(golden.runId);
    fresh.seed(events.filter((e) => e.type === "RunRequested" || e.type === "WorkflowVersionRegistered"));
    const tail = fresh.linesOf(events.slice(40));
    expect(tail.at(-1)).toEqual(lines.at(-1));
  });

  it("a wait and its resume: an approval asked and decided", () => {
    const at = 1_767_225_600_000;
    const waitEvents = [
      { seq: 1, runId: "r", type: "RunRequested", at, payload: { workflowId: "w", input: {}, trigger: { kind: "http" }, tenant: "t" } },
      {
        seq: 2,
        runId: "r",
        type: "ApprovalRequested",
        at: at + 5,
        payload: { approvalId: "a1", stepPath: "c1/pay", tool: "pay", args: {}, argsHash: "sha256:x", expiresAt: at + 1e6 },
      },
      {
        seq: 3,
        runId: "r",
        type: "ApprovalDecided",
        at: at + 50,
        payload: { approvalId: "a1", decision: "approved", argsHash: "sha256:x" },
      },
    ] as unknown as RunEvent[];
    const got = new RunLogLines("r").linesOf(waitEvents).map((l) => [l.transition, l.waitReason ?? null, l.durationMs]);
    expect(got).toEqual([
      ["requested", null, 0],
      ["waiting", "approval", 5],
      ["resumed", "approval", 50],
    ]);
  });
});
